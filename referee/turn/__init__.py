"""The turn protocol: the referee's state machine and how it judges a board reading.

Pure: no threads, no devices, time from an injected clock.
"""
