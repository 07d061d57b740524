"""Errors the user sees: each says what went wrong and what to do."""


class PhotoSearchError(Exception):
    """Base class; the CLI prints its message without a traceback."""


class CatalogError(PhotoSearchError):
    """The catalog database cannot be opened or used."""


class DecodeError(PhotoSearchError):
    """A file could not be read as an image. `reason` is a short machine code."""

    def __init__(self, reason: str, message: str):
        super().__init__(message)
        self.reason = reason
        self.message = message


class Cancelled(PhotoSearchError):
    """Long work stopped because the caller asked it to."""
