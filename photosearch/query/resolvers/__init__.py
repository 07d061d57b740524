"""Atom resolvers: each turns one plan atom into a scored set of photos (see `photosearch.query.atoms`)."""
