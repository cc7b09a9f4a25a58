"""bgtable vision: reading the checkers from the camera above the table.

Public interface (what the table process and tools use)::

    from vision.config import VisionConfig          # the [vision] settings (VisionConfig.from_dict)
    from vision.reader import BoardReader           # BoardReader(config).read(frame, t) -> BoardEvidence | None
    from vision.stability import StabilityFilter    # StabilityFilter(reader).feed(frame, t)
                                                    #   -> BoardEvidence (new still reading) | HandOverBoard | None
    from vision.render import render, render_scene, RenderParams, SCHEMES
                                                    # render(position: BoardEvidence, params, seed, hand) -> BGR image
    from vision.layout import SetUp, start_position, random_position, same_board
    from vision.markers import find_marker_corners, marker_sheet   # ArUco DICT_4X4_50, ids 0..3 = TL, TR, BR, BL
    from vision.sources import open_source          # frames from a camera, Picamera2, files, a video or the renderer
    from vision.photos import detect_checkers       # checker detection on arbitrary photos (no corners)

* Positions in and out are :class:`referee.events.BoardEvidence` in table numbering
  (Dark's points; ``points[i]`` is point ``i + 1``).  The renderer takes one as the
  position to draw (``off`` = checkers in the trays); the reader returns one with
  ``off = None`` (trays are not read yet).
* :class:`vision.layout.SetUp` says which corner of the playing area (as the camera
  sees it) holds Dark's home board; ``dark_home = "auto"`` learns it from the starting
  position.  "Dark" is the darker of the two checker colours, learned from the board.
* A reading is ``None`` when something lies across the board's frame band, when it is
  implausible (more than 15 checkers of a colour) or before the set-up is known.
  :class:`StabilityFilter` reports a reading only after ``stable_frames`` quiet frames
  and ``repeat`` identical readings, and ``HandOverBoard`` when movement starts.
* Stacking: up to 5 checkers lie in a row from a point's base; a 6th to 9th lies in a
  second layer, each across two first-layer checkers.  A checker exactly on top of
  another cannot be seen by one camera above; a 9-stack is read with lower confidence.
* Errors: :mod:`vision.errors` (``VisionError`` root; ``BoardNotFound``,
  ``ConfigError``, ``FrameSourceError``).
"""
