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
    from vision.photos import detect_checkers, PhotoParams  # checker detection on arbitrary photos (no corners);
                                                    # detect_checkers(image, params, trace) -> [Detection]
    from vision.size import measure_checker, rim_spacings  # the checkers' size from a board's stacks

Pipeline (each stage a pure function; thresholds in :class:`vision.params.ReadParams`,
:class:`vision.occlusion.OcclusionParams` and :class:`VisionConfig`):

1. **Find the board** (:func:`vision.reader.find_corners`): the four ArUco markers
   (``DICT_4X4_50``, ids 0 1 2 3 on the playing area's top-left, top-right,
   bottom-right, bottom-left corners; ``bgtable markers`` prints them; three suffice),
   else corners from the config, else :func:`vision.locate.auto_corners` (a model of the
   edges, the bar and the 24 triangle sides fitted to the colour gradients, searched in
   :mod:`vision.locate` with its model in ``locate_model``, the board/no-board decision in
   ``locate_evidence`` and the outline in ``locate_outline``; a board only when the
   triangles stand out, the rows repeat with the points and no bar shows clearer edges a
   point aside).  The automatic
   search takes about a quarter of a second here (a Pi is ~3x slower), so while it finds nothing it is tried only every
   ``auto_every`` frames (markers are looked for on every frame).
2. **Rectify** (:mod:`vision.rectify`): a top-down view, 32 px per point width; the
   pixel maps are kept per camera geometry, so each frame is one fixed-point remap.
3. **Occlusion** (:mod:`vision.occlusion`): something across the frame band = a hand.
4. **Read** (:mod:`vision.read`, one module per stage: ``rims``, ``checkers`` with ``stacks``,
   ``looks`` and ``bar``, ``colours``, ``assemble``; a missing reading's reason in ``reasons``):
   checker rims found by a ring filter along every point
   and the bar; a stack's extent from its last rim (a last rim much fainter than the
   stack's and not its colour is a point's tip, not a checker), second-layer checkers from
   whole rims half a checker off a full first row; bar checkers side by side (a fainter
   rim one diameter on from a bar checker continues its run; a lone rim far above the
   bar's own even level is a checker; a faint rim in the gap between two that would take
   its colour over 15 is the gap); second looks: a light checker washed out by glare shows
   only its outline (counted in a stack's next slot when its centre is clipped white and
   a closed ring darker than the face shows all round); colours split in two from the
   checkers themselves, darker = dark.
5. **Trays** (:mod:`vision.trays`, :func:`~vision.trays.read_trays`): strips beside the playing area's left and
   right edges (``layout.TRAY_SEARCH``), each read only when wholly in the frame.  Borne-off
   checkers lie on their sides: a ladder of thin dark lines one checker's thickness apart
   (measured) in the column where such lines are strongest; the bodies between the lines give the colour
   (the board's colour model), a body beyond either end line counts when its rows keep the
   bodies' colour.  Any side, any half-tray, either colour.
6. **Set-up** (:class:`vision.layout.SetUp`): which corner holds Dark's home board, from
   the config or (``dark_home = "auto"``) from the starting position.

Conventions and limits:

* Positions in and out are :class:`referee.events.BoardEvidence` in table numbering
  (Dark's points; ``points[i]`` is point ``i + 1``).  The renderer draws ``off`` as
  checkers in the trays.  The reader gives ``off = (dark, light)`` only when a tray side
  is in view, every half-tray was read surely and the counts add up with the checkers on
  the board (points and bar) to 15 a colour (the referee takes ``off`` as exact); else
  ``None``.  With all 30 checkers on the board and a tray side in view, ``(0, 0)``.
  While the board's per-colour totals stay the same the trays cannot have changed, so a
  sure reading is kept and not read again.  ``VisionConfig(trays=False)`` turns it off.
  A row of 5 shows the rims of a 12-pyramid: when the trays were read surely and its
  colour is exactly 7 short of 15, it is read as the 12 (just sure, confidence 0.6).
  A colour over 15 (an impossible board, no reading) gives one point or bar checker to the
  other colour when that makes both possible and its colour was clearly the least sure of
  those that would (:func:`vision.assemble.flip_one_colour`); that point is then unsure.
  The checkers' thickness lying down is measured from the ladder (two lines or more: the
  profile's self-similarity, 0.17-0.42 pw; the renderer draws 0.2-0.35 pw); a lone line
  beside a colour that runs on past any checker's thickness is a surface's edge (frame, tray
  wall), not a checker.  A single borne-off checker whose own line does not show (red on a
  black tray) is missed (then the totals do not add up and ``off`` is ``None``).
* Image rows: ``top`` runs from the first corner to the second, ``bottom`` from the
  fourth to the third (:class:`vision.layout.RowReading`, the ``bgtable read`` form).
* Stacking (:func:`vision.layout.stack_slots`): a row of 5 from a point's base, then each
  further layer from the base outwards, every checker across two of the layer below
  (5 + 4 + 3 + 2 + 1 = 15).  The reader counts rims, and from a full row on also fits
  the measured rim patterns of 5..15 (:func:`vision.stacks.tall_stack`); a clear pattern
  wins, an unclear disagreement is reported unsure.  A row of 5 and a 12-pyramid look
  much alike: told apart by their end rims; a colour over 15 checkers falls back to the
  next likeliest count, unsure.  The pattern pass assumes points 5 point widths deep;
  ``ReadParams(tall_stacks=False)`` turns it off for boards built otherwise (the real
  photo in the tests is one).
* Checker size (:mod:`vision.size`): every count rests on the checkers' diameter as a
  share of a point's width (sets: about 0.8-0.95; the layout's 0.9).  ``VisionConfig.checker``
  gives it; by default the reader measures it: a first row's rims lie one diameter apart,
  and the median spacing over the board's stacks is the diameter (every tenth frame, new
  boards only, until 60 spacings; a measurement within 0.035 or three standard errors of 0.9
  is 0.9).  The starting position alone (22 spacings) tells 0.8 from 0.9; 0.95 takes a few
  more boards.  ``bench/vision_proportions.py``: with the layout's size, boards of 0.8 pw
  checkers read 69 % exactly (24 % wrong and sure), 0.95 pw 90 % (8 %); measured after the
  starting position 100 % and 96 %; 0.9 unchanged.
* Board shape (:class:`vision.layout.BoardShape`): the reader works on the layout's
  proportions (bar 1 point width, playing area 11 high); ``VisionConfig.bar_width`` and
  ``board_height`` (``bgtable read --bar-width --board-height``) describe a board built
  otherwise, and rectification maps it onto the layout (the halves and the edges kept, the
  middle of a wider bar shown unscaled, the band between the rows' tips stretched).
  ``bench/vision_proportions.py`` part 2: a 2-wide bar and 12-high area read 2 % exactly
  with the layout's shape, 98 % told; bar 1.5: 87 -> 99 %; height 12.5: 70 -> 97 %.  The
  automatic board finding (:mod:`vision.locate`) still assumes the layout's shape; with
  another shape give the corners or use the markers.
* Confidence (calibrated on rendered boards, ``bench/vision_accuracy.py`` part 3):
  ``PointReading.confidence`` >= 0.6 means "sure": on 24,000 rendered points 3 of the
  ~23,800 sure ones were wrong and 0.7-0.8 % of the right ones were unsure; about half the
  wrong points score below 0.6 (and get the referee's +-1 tolerance).  A point's colour is
  unsure when its colour margin (how far it sits from the two learned colours' midpoint)
  is below 0.1, or when the two colours differ in hue and its hue points to the other one
  (shadow and glare move lightness, not hue); a bar checker's colour is judged the same way.
  ``BoardEvidence.confidence`` is 0 for impossible totals (more than 15 of a colour),
  below 0.6 when more than three points are unsure or the bar count is (the bar
  has no confidence of its own; about 1 % of exact boards), else 0.6 + 0.4 x the weakest point's.
  0.6 is the referee's ``min_confidence``
  default; the numbers are thresholds that mean something, not probabilities.
* Renderer frames: ``render(..., seed, frame=k)`` keeps camera, light, board and checker
  placement of ``seed`` and draws fresh sensor noise and flicker per ``frame`` (0 = as before).
* A stable reading needs ``stable_frames`` motionless frames (a global flicker and
  sensor noise are not motion) and ``repeat`` identical readings; the same board read
  more surely is reported again.  After one, a change larger than a few checkers or
  anything on the frame band counts as a hand until it leaves (or stays motionless for
  10 frames).
* Speed (``bench/vision_speed.py``, one core, 1280x720, a shared 2-core machine): a full
  read with known corners repeated on one camera's frames 10-11 ms (the code before the
  remap/complex-gather changes: 15.8-18 ms in the same runs); reading the trays afresh
  costs about 1.5 ms and happens only when the board's totals change; a one-off read (new
  camera: a plain warp, no kept maps) 13-17 ms; the per-frame stability check below 1 ms.
* Errors: :mod:`vision.errors` (``VisionError`` root; ``BoardNotFound``, ``ConfigError``,
  ``FrameSourceError``).
"""
