"""bgtable vision: reading the checkers from the camera above the table.

Public interface (what the table process and tools use)::

    from vision.config import VisionConfig          # the [vision] settings (VisionConfig.from_dict)
    from vision.reader import BoardReader           # BoardReader(config).read(frame, t) -> BoardEvidence | None
    from vision.stability import StabilityFilter    # StabilityFilter(reader).feed(frame, t)
                                                    #   -> BoardEvidence (a new still reading) | HandOverBoard | None
    from vision.render import render, render_scene, RenderParams, SCHEMES
                                                    # render(position: BoardEvidence, params, seed, hand) -> BGR image
    from vision.layout import SetUp, start_position, random_position, same_board
    from vision.markers import find_marker_corners, marker_sheet
    from vision.sources import open_source          # "camera:0", "/dev/video0", "picamera2", "files:GLOB",
                                                    # a folder, "video:PATH", "render:SEED"
    from vision.photos import detect_checkers       # checker detection on arbitrary photos (no corners)

Pipeline (each stage a pure function; thresholds in :class:`vision.read.ReadParams`,
:class:`vision.occlusion.OcclusionParams` and :class:`VisionConfig`):

1. **Find the board** (:func:`vision.reader.find_corners`): the four ArUco markers
   (``DICT_4X4_50``, ids 0 1 2 3 on the playing area's top-left, top-right,
   bottom-right, bottom-left corners; ``bgtable markers`` prints them; three suffice),
   else corners from the config, else :func:`vision.locate.auto_corners` (board outline,
   frame-colour profiles, candidates checked for alternating point colours).
2. **Rectify** (:mod:`vision.rectify`): a top-down view, 32 px per point width.
3. **Occlusion** (:mod:`vision.occlusion`): something across the frame band = a hand.
4. **Read** (:mod:`vision.read`): checker rims found by a ring filter along every point
   and the bar; a stack's extent from its last rim, second-layer checkers from whole rims
   half a checker off; colours split in two from the checkers themselves, darker = dark.
5. **Set-up** (:class:`vision.layout.SetUp`): which corner holds Dark's home board, from
   the config or (``dark_home = "auto"``) from the starting position.

Conventions and limits:

* Positions in and out are :class:`referee.events.BoardEvidence` in table numbering
  (Dark's points; ``points[i]`` is point ``i + 1``).  The renderer draws ``off`` as
  checkers in the trays; the reader returns ``off = None`` (trays are not read yet).
* Image rows: ``top`` runs from the first corner to the second, ``bottom`` from the
  fourth to the third (:class:`vision.layout.RowReading`, the ``bgtable read`` form).
* Stacking (:func:`vision.layout.stack_slots`): a row of 5 from a point's base, then each
  further layer from the base outwards, every checker across two of the layer below
  (5 + 4 + 3 + 2 + 1 = 15).  Up to 9 the reader counts rims; from a full row on it also
  fits the rim patterns of 10..15 (:func:`vision.read.tall_stack`).  A row of 5 and a
  12-pyramid look much alike: told apart by their end rims; a colour over 15 checkers
  falls back to the next likeliest count, marked unsure.  The tall pass assumes the
  layout's proportions (point 5 checker widths deep less a tenth); ``ReadParams(tall_stacks=False)`` turns it off.
* Confidence (calibrated on rendered boards, ``bench/vision_accuracy.py`` part 3):
  ``PointReading.confidence`` >= 0.6 means "sure": such a point was wrong in fewer than
  1 in 1000 rendered cases, while about half the wrong points score below 0.6 (they are
  then worth the referee's +-1 tolerance).  ``BoardEvidence.confidence`` is 0 for
  impossible totals (more than 15 of a colour), below 0.6 when more than three locations
  (points, bar) are unsure, else 0.6 + 0.4 x the weakest point's.  0.6 is the referee's
  ``min_confidence`` default; the numbers are not probabilities of being right.
* Renderer frames: ``render(..., seed, frame=k)`` keeps camera, light, board and checker
  placement of ``seed`` and draws fresh sensor noise and flicker per ``frame`` (0 = as before).
* A stable reading needs ``stable_frames`` motionless frames and ``repeat`` identical
  readings (the same board read more surely is reported again); after one, a change larger than a few checkers or anything on the frame band
  counts as a hand until it leaves (or stays motionless for 10 frames).
* Errors: :mod:`vision.errors` (``VisionError`` root; ``BoardNotFound``, ``ConfigError``,
  ``FrameSourceError``).
"""
