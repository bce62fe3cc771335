"""Transports: the gRPC servicer and its call hook, the HTTP port, service errors to statuses."""
