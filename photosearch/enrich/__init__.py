"""Vision Search Assistant: visual content formulation, the Chain of Search over web (or local)
knowledge, collaborative generation, and learned knowledge written back into the catalog."""
