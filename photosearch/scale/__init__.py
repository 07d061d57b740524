"""Scale-out: indexing fanned out over Ray (see docs/SCALE.md)."""
