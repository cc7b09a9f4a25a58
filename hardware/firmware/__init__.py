"""The dice reader's reference firmware (C, ATmega328P) and its simulators, driven from Python.

The C sources, the Makefile and the design live beside this file (``src/``, ``sim/``,
``host/``; ``hardware/design/sensing.md``).  This package only builds and runs them.

Interface (:mod:`hardware.firmware.tools`)
------------------------------------------
* ``build(build_dir, targets=("firmware", "sim", "host")) -> Build``: runs ``make`` with
  ``BUILD=build_dir``; ``Build.elf``, ``.hex``, ``.harness``, ``.proto_tool``, ``.logic_tool``
  and ``Build.size_report`` (the flash/RAM lines).  Raises :class:`~.errors.BuildError` naming
  the missing Debian package.
* ``SimavrReader(build, eeprom=..., seed=..., speed=1.0)``: the real ``.elf`` running in simavr
  with its UART on a pseudo-terminal (``.port``, a path any serial client opens, e.g.
  ``firmware_bridge.link.DiceLink(reader.port)``); ``.command("die 0 top 3")`` drives the
  simulated sensors (scene commands: ``hardware/design/simulation.md``).
* ``LogicTool(build)``: the same firmware logic compiled for the host on a virtual clock:
  ``.run(ms) -> [(ms, frame_bytes)]``, ``.rx(bytes)``, ``.command(line)``; deterministic.
* ``ProtoTool(build)``: the firmware's frame codec compiled for the host (``.encode``,
  ``.decode``, ``.stream``) for checking against ``firmware_bridge/vectors.json``.
* ``bgtable firmware-sim`` (:func:`hardware.firmware.cli.run`): build and start
  the simulated reader; prints ``PTY <path>`` and passes stdin scene commands to it.
"""
