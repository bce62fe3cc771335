"""AnalyseHand: a finished table's hand analysed with every card revealed (bots/analysis.py),
folded from the table's log and solved off the event loop."""

from __future__ import annotations

from tarok_proto.tarok.v1 import tarok_service_pb2 as svc

from ...bots.analysis import analyse_hand as analyse
from ...bots.solver import models, solvable
from ...engine.state import HandState
from ...store import StoredEvent
from .. import errors as e
from ..model import events
from ..model.fold import FINISHED, TableState, fold
from .context import Context
from .seats import check_holder
from .watch import off_loop


async def analyse_hand(ctx: Context, request: svc.AnalyseHandRequest) -> svc.AnalyseHandResponse:
    claim = ctx.claim(request.token)
    latest = await ctx.cache.load(claim.table_id)
    check_holder(claim, latest)
    if latest.status != FINISHED:
        raise e.precondition(e.TABLE_NOT_FINISHED, "a hand is analysed once the match is over")
    if not solvable(latest.variant):
        raise e.precondition(e.NOT_ANALYSABLE, f"the solver does not model {latest.variant.id}")
    if not 0 <= request.deal_number <= latest.deal_number:
        raise e.invalid("deal_number", f"deal_number must be 0 (the last) to {latest.deal_number}")
    deal = request.deal_number or latest.deal_number
    stored = await ctx.store.read(claim.table_id, 0, latest.version)
    return await off_loop(_analysed, claim.table_id, stored, deal)


def _analysed(table_id: str, stored: list[StoredEvent], deal: int) -> svc.AnalyseHandResponse:
    """The answer for hand `deal`, from the table's events (runs in a worker thread)."""
    table: TableState | None = None
    final: HandState | None = None
    for item in stored:
        table = fold(table, table_id, item.seq, events.decode(item))
        hand = table.hand
        if table.deal_number == deal and hand is not None and hand.finished:
            final = hand
    if table is None or final is None:
        raise e.invalid("deal_number", f"hand {deal} was not played to its end")
    contract = table.variant.view(final, None).contract
    if not models(contract):
        raise e.precondition(e.NOT_ANALYSABLE, f"the solver does not model a {contract}")
    found = analyse(table.variant, final)
    codes = table.deck.codes
    return svc.AnalyseHandResponse(
        deal_number=deal,
        contract=found.contract,
        measure=found.measure,
        cards=[
            svc.CardAnalysis(
                trick=c.trick,
                seat=c.seat,
                card=codes[c.card],
                side=list(c.side),
                value=c.value,
                best=c.best,
                exact=c.exact,
            )
            for c in found.cards
        ],
    )
