"""simcore's version, at the bottom floor so that nothing imports the package root for it."""

__version__ = "0.1.0"
