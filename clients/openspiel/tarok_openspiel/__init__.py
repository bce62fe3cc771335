"""Every tarok rule set as an OpenSpiel game (`python_tarok_slovenian`, `python_tarok_double`,
`python_tarok_zwanzigerrufen`, `python_tarok_taroky`, `python_tarok_bolognese`,
`python_tarok_french_tarot`, `python_tarok_koenigrufen`: each rule set's registered mapping),
refereed by the server's own rules engine. Importing this package registers them with
`pyspiel`."""

from __future__ import annotations

from .game import GAMES, TarokGame, TarokState, register_all

register_all()

__all__ = ["GAMES", "TarokGame", "TarokState", "register_all"]
