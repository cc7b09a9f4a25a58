"""Build the table's output devices and buttons from the config (the only place that does).

Every builder takes its bus, SPI device or pin factory as an argument so a test
or the simulated table passes fakes (``FakeI2CBus``, ``FakeSPI``, gpiozero's
``MockFactory``); left as ``None`` the real one is opened.  A real pin factory
is chosen by gpiozero (``GPIOZERO_PIN_FACTORY``; ``lgpio`` on a Raspberry Pi 5).
"""
from __future__ import annotations

import time
from typing import Any, Optional

from .buttons import ButtonPanel, Clock
from .config import HardwareConfig
from .cube import CubeDisplay, LedRowOutput, SegmentOutput, ValueOutput


def build_cube_display(config: HardwareConfig, *, pin_factory: Any = None, i2c_bus: Any = None, spi: Any = None,
                       clock: Clock = time.monotonic) -> CubeDisplay:
    """The cube display described by ``[cube_display]`` (seated by ``[players].left``)."""
    from gpiozero import LED  # noqa: PLC0415

    c = config.cube_display
    value: Optional[ValueOutput] = None
    if c.type == "ht16k33":
        from .ht16k33 import HT16K33, open_bus  # noqa: PLC0415
        bus = i2c_bus if i2c_bus is not None else open_bus(c.i2c_bus)
        value = SegmentOutput(HT16K33(bus, c.i2c_address, c.digits, c.layout, c.brightness))
    elif c.type == "max7219":
        from .max7219 import MAX7219, open_spi  # noqa: PLC0415
        dev = spi if spi is not None else open_spi(c.spi_port, c.spi_device)
        value = SegmentOutput(MAX7219(dev, c.digits, c.brightness))
    elif c.type == "leds":
        value = LedRowOutput([LED(p, pin_factory=pin_factory) for p in c.value_pins])
    owners = [LED(p, pin_factory=pin_factory) for p in c.owner_pins]
    return CubeDisplay(value, owners, left=config.players.left, clock=clock, blink=c.blink_ms / 1000,
                       digits=c.digits)


def build_buttons(config: HardwareConfig, *, pin_factory: Any = None, clock: Clock = time.monotonic) -> ButtonPanel:
    """The players' buttons described by ``[buttons]``."""
    return ButtonPanel(config.buttons, pin_factory=pin_factory, clock=clock)
