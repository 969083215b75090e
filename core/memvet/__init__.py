"""MemVet."""
