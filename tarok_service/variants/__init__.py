"""The rule sets. Importing this package registers every variant by id."""

from . import slovenian  # noqa: F401
