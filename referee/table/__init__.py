"""The table process: the one place that imports every package.

* :mod:`referee.table.process` -- :class:`TableCore`: journal -> referee -> journal -> outputs,
  one event at a time; resumes from its journal after a crash.
* :mod:`referee.table.run` -- ``bgtable run --config table.toml``: the loop over the real devices
  (:mod:`referee.table.devices` opens them; :mod:`referee.table.matches` keeps the live journal
  and archives finished matches).
* :mod:`referee.table.demo` -- ``bgtable demo``: the simulated table.
* :mod:`referee.table.simtable` / :mod:`referee.table.simdevices` -- simulated players and devices.
* :mod:`referee.table.sdnotify` -- systemd's notify protocol (``Type=notify``, watchdog).
"""
