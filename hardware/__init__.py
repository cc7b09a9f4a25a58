"""bgtable's table hardware: what the players touch and look at.

Everything here is driven by the referee's output (:class:`referee.view.TableView`)
or produces the referee's input (:class:`referee.events.PlayerInput`), and all of
it runs without a Raspberry Pi (fake I2C/SPI buses, gpiozero's ``MockFactory``,
SDL's dummy video driver).

Interface
---------
* ``hardware.config``: the hardware's sections of the table's TOML (``players``,
  ``cube_display``, ``buttons``, ``screen``) as frozen values, gathered in
  :class:`~hardware.config.HardwareConfig`; the table process
  (:mod:`referee.table.config`) reads the file and calls their readers; errors are
  :class:`referee.sections.ConfigError` naming key and value.
* ``hardware.devices``: ``build_cube_display(config, pin_factory=, i2c_bus=, spi=, clock=)``
  and ``build_buttons(config, pin_factory=, clock=)``.
* ``hardware.cube``: :class:`~hardware.cube.CubeDisplay` (``show(view)``, ``tick()``),
  the pure :func:`~hardware.cube.cube_frame`.
* ``hardware.buttons``: :class:`~hardware.buttons.ButtonPanel` (``poll() -> [PlayerInput]``),
  the pure :class:`~hardware.buttons.Debouncer`.
* ``hardware.screen``: ``draw(surface, view, theme=, bottom=) -> Layout`` (pure),
  ``render(view, size)``; ``hardware.runner.ScreenRunner`` opens the window / KMS screen.
* ``hardware.ht16k33`` / ``hardware.max7219``: segment drivers on an injected bus;
  ``hardware.fakes``: ``FakeI2CBus``, ``FakeSPI``.
* ``bgtable screen`` (``hardware.cli.add_screen_arguments`` / ``run_screen``): ``--demo``, ``--views``,
  ``--screenshot``.

Wiring, the button schemes and the screenshots: ``hardware/DEVICES.md``.
"""
