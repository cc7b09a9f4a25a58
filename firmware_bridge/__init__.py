"""bgtable's dice-reader link: the serial protocol, its host side and a simulated reader.

The protocol is specified in ``PROTOCOL.md`` (normative) with test vectors in
``vectors.json`` and ``vectors_invalid.json``.

Interface
---------
* :mod:`firmware_bridge.codec` -- pure: ``encode_frame(message, seq) -> bytes`` and
  ``Decoder().feed(bytes) -> list[Frame]`` (noise is counted in ``Decoder.stats``, never raised).
* :mod:`firmware_bridge.messages` -- the message value types (``RollSettledMsg``, ``Info`` ...), with
  the protocol's codes (:mod:`firmware_bridge.codes`) and the die record (:mod:`firmware_bridge.die`).
* :mod:`firmware_bridge.link` -- ``DiceLink(url_or_usb, events=queue.Queue())``: opens the port
  exclusively, handshakes, reconnects, ACKs, de-duplicates, and puts ``referee.events`` values
  (``RollStarted``, ``RollSettled``, ``DiceLifted``, ``ReaderFault``) on the queue.
* :mod:`firmware_bridge.sim` -- ``SimulatedReader``: a scriptable reader on a pseudo-terminal
  with fault injection (garbage, drops, corruption, unplug/replug, reboot, slow link); the pty,
  its thread and the line's faults are :mod:`firmware_bridge.sim_line`'s.
* :mod:`firmware_bridge.cli` -- ``bgtable dice-sim`` and ``bgtable dice``.

Errors are rooted in :class:`firmware_bridge.errors.BridgeError`.
"""
