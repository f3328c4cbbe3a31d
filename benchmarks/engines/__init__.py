"""One adapter per engine, all with the same small interface (see base.py), so the runner can
build the same scene in each and time only the stepping."""

from .base import Engine, available

__all__ = ["Engine", "available"]
