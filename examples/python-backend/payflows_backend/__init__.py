"""A payflows backend in Python: the payload codec, the message schemas, claims, a Temporal client."""
