"""bgtable's table hardware: what the players touch and look at.

Everything here is driven by the referee's output (:class:`referee.view.TableView`)
or produces the referee's input (:class:`referee.events.PlayerInput`), and all of
it runs without a Raspberry Pi (fake I2C/SPI buses, gpiozero's ``MockFactory``,
SDL's dummy video driver).

Interface
---------
* ``hardware.config``: :func:`~hardware.config.load` / ``loads`` the whole-table
  TOML into a frozen :class:`~hardware.config.TableConfig` (sections ``players``,
  ``camera``, ``dice``, ``rules``, ``cube_display``, ``buttons``, ``screen``,
  ``journal``); errors are :class:`~hardware.errors.ConfigError` naming key and value.
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
* ``bgtable screen`` (``hardware.cli.main_screen``): ``--demo``, ``--views``, ``--screenshot``.

Wiring, the button schemes and the screenshots: ``hardware/DEVICES.md``.
"""
