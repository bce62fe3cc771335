"""The rule sets. Importing this package registers every variant by id."""

from . import (  # noqa: F401
    double_tarok,
    slovenian,
    tarocco_bolognese,
    taroky,
    zwanzigerrufen,
)
