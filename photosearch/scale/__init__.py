"""Scale-out: indexing fanned out over Ray, vector indexes in shards (see docs/SCALE.md)."""
