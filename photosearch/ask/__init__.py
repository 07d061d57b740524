"""Ask about one photo, locally: what the catalog holds about it (evidence.py), said in sentences
(sentences.py), in steps a front end can show as they happen (local.py). No Qt, no network."""
