"""The club link: tables publish their journal to the club's MQTT broker; ``bgtable club``
serves the director's page from it.

* :mod:`.config`: the ``[club]`` section of a table's TOML, and the club's own file.
* :mod:`.messages`: topics and the JSON messages on them, checked on the way in.
* :mod:`.translate`: journal lines to messages (the referee replayed from the journal).
* :mod:`.broker`: the broker interface, paho-mqtt behind it, an in-memory fake for tests.
* :mod:`.publisher`: the table's publisher, which keeps its own offset in the journal.
* :mod:`.director`: director actions arriving at a table, checked and journaled.
* :mod:`.acl`: the Mosquitto password and ACL files from the club's table list.
* :mod:`.server`: ``bgtable club``: the subscriber, the state it keeps, the HTTP server.
"""
