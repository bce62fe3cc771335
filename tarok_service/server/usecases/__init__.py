"""The use cases of the service: one module per request family, with the shared context,
input limits, tokens and the typed service errors."""
