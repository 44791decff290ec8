"""Read the cards in a table picture: detect at low resolution, read each corner index from the full picture.

>>> reader = Reader()                                   # doctest: +SKIP
>>> reads = reader.read_still(cv2.imread("table.jpg"))  # doctest: +SKIP
>>> [(r.code, round(r.confidence, 2)) for r in reads]   # doctest: +SKIP
[('Td', 0.98), ('As', 0.91), (None, 0.3), ('BACK', 0.8)]

Each corner is read by locating the rank glyph and the suit glyph inside it (``reader_glyph``) and classifying
them with two small numpy networks (``models/reader_rank.npz``, ``models/reader_suit.npz``). With an enrolled
deck (``enrol``), the glyph features are matched against that deck's own prototypes instead. A read below the
confidence threshold has ``code=None`` (abstain) rather than a guess.
"""

from __future__ import annotations

import os
from collections.abc import Sequence, Set as AbstractSet
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, cast

import cv2
import numpy as np
import numpy.typing as npt

from companion.cards import Card
from companion.vision import BACK, CardRead
from companion.vision.detect import (CARD_ASPECT, CHIP_CARDS, CHIP_ROUND, HAND_ASPECT, CornerCandidate, Detection,
                                     card_shaped, components, detect_cards, longest_stretch, order_clockwise,
                                     round_hull, short_side)
from companion.vision.index_pairs import index_cards
from companion.vision.index_search import (SCAN_INDEX, SCAN_OUTSETS, IndexFrame, edge_angles, frames_in, hand_ink,
                                           outline_frames)
from companion.vision.pips import PipCount, count_pips
from companion.vision.reader_corner import INPUT_H, INPUT_W, frame_input, load_corner_net
from companion.vision.reader_glyph import (IndexGlyphs, corner_patch, glyph_box, glyph_colours, glyph_features, ink_map,
                                            locate_index, locate_index_why)
from companion.vision.reader_locator import LOC_CW, MAX_SIDE, PAD, Located, load_locator
from companion.vision.reader_model import load_classifier
from companion.vision.sources import as_bgr

if TYPE_CHECKING:
    from companion.vision.enrol import EnrolledDeck

RANKS = "23456789TJQKA"
SUITS = "cdhs"
DEFAULT_THRESHOLD = 0.5
OUTSET = 0.015  # card widths
# A corner guessed from an outline must clear the threshold by this much. At 0.15 rather than 0.2, on the tuning
# scenes (seeds 5030-5149 of the four-colour deck, 5030-5089 of byronknoll_vector) pocket cards read 590 -> 598
# of 631 and 265 -> 267 of 305, at the price of one wrong read in about 900 (a 5h read 3h at 0.67, gone again
# once a parted suit kept its joint: reader_glyph); at 0.1, 600 and 267 with two wrong. The real photos' dev
# half: 194 -> 196 cards, no new wrong read.
GUESSED_MARGIN = 0.15
CUT_MARGIN = 0.15  # more still for a rank cut on the left at a guessed corner (``CornerRead.cut``)
# Ranks that another rank cut on the left looks like: the right half of an 8 is a 3, of a 6 a 5 (a frame at a
# hand's outline corner, turned a quarter, cut the 6 of spades above its own index: 5s at 0.67), the '0' of a 10 a
# Q (a frame at a lower 10 of clubs: Qc at 0.69; tuning sets: +1 card, a king the queen's read had kept out).
CUT_RANKS = "35Q"
# A spade or club whose suit ink is this red (red less green, 0-255, the corners' mean) is a misread suit
# (``_ink_fits``). Corners read as a spade or club at over 0.8 on the tuning tables: median 0-1, 99th
# percentile 10-35; diamonds read as such: the four-colour deck's orange 85 in the median, the red ones 168.
SUIT_RED_MAX = 50.0
# Ranks the lower part of another rank looks like, to the corner classifier: an 8 whose top the frame's top border
# cuts is a 6 (two frames of the four-colour deck's 8s, named 6 at 0.91 and 0.93). Not named by the classifier at a
# guessed frame whose rank glyph touches the frame's top (``Reader._glyphs_deny``).
CUT_TOP_RANKS = "6"
# A guessed corner that does not read is tried again a little further out along x and y (card widths): a frame
# off by a pixel or two cuts a glyph at the patch border. (The card's edge taken in along the top or left is
# cleared by the locator itself. Outline corners found at low resolution sit a little inside the card more often
# than not: out along x and y reads 2 more tuning cards in 936 than out along x alone, and every card that one
# read; a third retry, both, cost a tenth of the still's time.)
JITTER = ((0, 0), (-0.03, -0.02))
# Cards under LO_CW pixels wide (indices about 12 px tall or less): a pixel or two decides whether thin strokes
# come apart, and an outline corner is tried in a few more frames around it (tuning at 2028 px, cards 0.085 of
# the height, about 90 px wide: 4 more pocket cards of 390, none wrong; the same for the index search's frames
# read 1 more at a cost).
LO_CW = 120.0
JITTER_LO = JITTER + ((0.02, 0.02), (-0.015, 0.015), (0.015, -0.015))
# An outline corner that still does not read, though it found ink, and that no card read by then explains, is
# tried further out along the diagonal (card widths), last of all: beside small cards (the whole table in view)
# the outline, found at low resolution round the card's rounded corner, sits up to a sixth of a card inside it.
FAR_JITTER = ((-0.07, -0.07), (-0.12, -0.11), (-0.17, -0.16))
# ...and one that still does not read, but found ink, is turned onto the longest straight edge of its hand that
# runs TURN_DEG off its own axes (degrees, mod 90) and read a little further out: a lower card's corner in a fan,
# squared up on the edge of the card above it, 18-30 degrees off, sees its index askew. (Two turns, each also
# read in place, read one tuning card more and cost twice the reads.)
TURN_DEG = (5.0, 40.0)
# Not retried so: a corner on or within this many card widths of a hand set aside as face-down cards.
FAR_BACK = 0.1
TURN_JITTER = ((-0.07, -0.07),)
TURNS = 1  # turns tried, along the longest edges first
FAR_PROBE = 0.3  # card widths along both axes: a point inside the card an outline corner's frame stands for
TOUCHING_TURNS = (90.0, -90.0)  # degrees: a named card's corner without an index, tried as a touching card's corner
FAR_CORNER = 0.1  # card widths: an outline corner this near a named card's corner is that card's
# A far frame may start past the index, with a stroke of a glyph the border cut taken for a narrow rank (a
# queen's side read as a J, 0.66): its read must clear the guessed corner's margin by this much more.
FAR_MARGIN = 0.1
# What a corner frame's locator found where nothing read (``Reader._corner``): ink the frame's left border cuts
# (a frame a little further left may read), or a glyph row. Only a corner whose frames found a glyph row is tried
# further out (``_read_far``): where they found ink at the border alone, the far frames read no card on 240 tuning
# stills with the whole table in view (small cards; 329 such corners) and cost a quarter of the far frames' time.
INK_AT_LEFT, GLYPH_ROW = 1, 2
# A card's outline found from its edges alone that looks like a back is not one where this share of its inside
# has the colour round it (chips lined up on the mat; ``_edge_back``).
EDGE_BACK_MAT = 0.1
# An outline from edges alone (``detect.edge_quads``) that does not read, and is bigger than a card, is read again
# shrunk about its centre by these factors: beside small cards in a glare spot, the edges enclosed the card's
# blurred halo too, and the outline was a sixth too big (small-card byron tuning scenes: 2 more community cards
# in 195; the card size estimate is too rough to size the outline to it).
EDGE_SHRINK = (0.93, 0.86)
# A face's paper margin beside its picture, across the short side (card widths), and the card width in pixels
# below which it is not looked for (the band would be a pixel or two).
MARGIN_BAND = (0.06, 0.11)
MARGIN_MIN_PX = 40
# A hand no card was read in is face-down cards (a back's pattern light enough to pass for paper, so that no back of
# the same blob was found: ``_hand_back``) where it is at least HAND_BACK cards' area, fills HAND_BACK_SOLID
# of its convex hull (fanned backs 0.83 and up on the tuning scenes; clutter in the photos' dev half mostly under
# 0.6), is shorter than detect.HAND_ASPECT, its rectangle looks like a back (``_looks_like_back``, its middle under
# HAND_BACK_PAPER paper rather than a lone card's 0.45: white stars on blue backs make 0.48, hands of faces on two
# tuning scenes 0.61-0.86, and a card read in them rules them out anyway) and at most one part of it is plain
# (``_plainest_tile``: the mean |Laplacian| of its second plainest sixteenth at least HAND_BACK_TEXTURE; chips with
# the mat between them, a glare spot, a book's cover: 0.3-0.9; backs 3.6 and up, blurred on a white cloth; a white
# chip touching fanned backs fills one sixteenth).
HAND_BACK, HAND_BACK_SOLID, HAND_BACK_TEXTURE = 1.0, 0.8, 2.0
HAND_BACK_PAPER, HAND_BACK_PLAIN = 0.6, 1
EARLY_BACKS = True
BACK_PX = 160  # a card is looked at for a back's pattern at most this many pixels across its short side
UNCOVERED = 0.15  # of a card's area: a hand this much outside every card read gets the deep index search,
HAND_CARDS = 3  # as does a hand with fewer cards read in it (a player holds two, or three)
# A corner read whose card a card read whole covers is kept where it names another card at STACKED_MIN or more,
# its index over STACKED_APART card widths from the whole card's (``_stacked_on``).
STACKED_KEEP = True
STACKED_MIN, STACKED_APART = 0.9, 0.3
# A card read from a pair whose corner lies on another card (``frames_in(on_card=True)``): named only this far over
# the threshold (a guessed corner's GUESSED_MARGIN lets pip pairs through).
ON_CARD_MARGIN = 0.3
ON_HAND = 0.8  # ... and only where this much of its area lies on the hand (a card laid on another lies on it)
# The outline scan (``_read_outline_scan``) names a card where the whole-corner classifier is this sure of it (its
# rank's probability times its suit's).
SCAN_NET_MIN = 0.9
# ... and looks at a hand none of whose cards read only where its outline has a straight stretch this many card
# widths long (a card's short side, whole): two cards neither of which read (seed 5187 at low resolution: 1.04),
# not a glare spot joined to chips (0.89), whose outline gave 328 frames and doubled a still's time.
SCAN_BARE_EDGE = 1.0
# The outline scan asks the sharpest of the turns side by side along a rounded corner (``index_search.SCAN_APART``:
# a whole-table still's frames 378 -> 229, the scan's time 170 -> 112 ms, for the same cards on every tuning set),
# then the turns passed over within SCAN_NEAR card widths of a frame that names a card not read yet at SCAN_NEAR_LOOK
# to SCAN_NET_MIN (tuning scenes: two small cards, 5119's 9c and 5247's Qs, are named only from such a turn).
SCAN_NEAR_LOOK = 0.3
SCAN_NEAR = 0.16
# The index locator's peaks asked of the whole-corner classifier (``_read_located``): at this score or more, at
# most so many a hand.
LOCATE_MIN, LOCATE_MOST = 0.3, 12
# A card the classifier says there at LOCATE_LOOK or more (under SCAN_NET_MIN) is read again about that frame
# (``_refined``), with its pooled rule where LOCATE_POOLED (tuning seeds 5150-5259: +2 from 0.4 rather than
# REFINE_LOOK, +1 pooled; none wrong).
LOCATE_LOOK = 0.4
LOCATE_POOLED = True
# A peak this near (card widths) a named card's corner is that card's, not asked (as for the far frames: on a white
# cloth a named ten's other corner was read as 9d, the nine of spades beside it)...
LOCATE_SEEN = FAR_CORNER
# ...at a corner where its index stands (the outline's first and third), and at either other corner only where
# the peak's card lies this much on the named card (``_share_on``; 0: at every corner): in a row laid overlapping,
# a card's index corner sits on its neighbour's bare corner, the index pointing away from it.
LOCATE_SEEN_SHARE = 0.5
# A peak whose frame names a card read already is asked again this far along its x axis, away from that card
# (card widths; 0: not).
LOCATE_BESIDE = 0.12
# A card the classifier half believes at a located frame (LOCATE_LOOK or more) or an outline scan's (REFINE_LOOK
# or more) that _refined leaves unnamed is named where the glyph reader at that frame names it too at this or more,
# and no other card (``_glyphs_named``; 0: not): a stacked slot's lower card, its index above the upper card's, the
# classifier's frame taking in both.
LOCATE_GLYPHS = 0.6
# Last, the locator over the paper no named card covers, anywhere in the picture (``_read_everywhere``): a card no
# outline nor hand gave (half off the picture, beside a box in a phone photo, a stacked slot's card, a hand on a
# white cloth). Boxes round each piece of such paper EVERYWHERE_CARDS of a card's area or more, EVERYWHERE_MARGIN
# card widths wider all round; peaks at EVERYWHERE_MIN or more, EVERYWHERE_MOST a tile; named at EVERYWHERE_NET,
# read again about the frame from EVERYWHERE_LOOK (``_refined``, pooled as LOCATE_POOLED). The locator reads the
# working picture where a card is EVERYWHERE_WORK times its input's card width there or more (a cheap resize).
# Tuning seeds 5150-5259 def/lo +3, 5030-5149 all five kinds +19, dev photos +2, none wrong. Over the whole picture
# it found twice as many on the tuning seeds but cost 60 ms a 12 MP still (resizing the still alone 44 ms); this
# costs about 6 (interleaved 1.04-1.05 a still). Boxes from pieces 0.05 of a card, 0.6 card widths wider (were 0.1
# and 0.3: a card whose paper is mostly under others or a box): 5030-5149 all five kinds +9 / -1, dev photos +1,
# none wrong, 1.02-1.06 the time. A lone white chip (a piece under CHIP_CARDS of a card whose hull is a disc, as
# for the hands) gets no box, but on a light cloth: nothing differs on the tuning seeds or dev photos, 0.95 the time
# (four or five chips a whole-table still had cost some 9 ms).
EVERYWHERE_CARDS, EVERYWHERE_MARGIN = 0.05, 0.6
EVERYWHERE_MIN, EVERYWHERE_MOST = 0.3, 30
EVERYWHERE_NET, EVERYWHERE_LOOK = SCAN_NET_MIN, LOCATE_LOOK
EVERYWHERE_WORK = 1.5
# A hand whose only named card was read whole may be a tight fan of two found as one outline: its peaks are asked
# inside that card too (the lower card's index peeks out along the rim; tuning seeds 5150-5259: +2, none wrong).
LOCATE_IN_LONE = True
# ... and a hand two cards or more of which read, only at the corners where none of these points (card widths
# along the frame's x and y axes: the index and the corner's paper) lies on a card read: the lower card of three
# sticking out past the others, a stacked slot's upper card whose top corners lie on the lower one's paper
# (tuning scenes: stacked rows +6 community cards, white cloth +1 pocket card, none wrong; about 4 % more time).
CROWDED_CHECK = ((0.12, 0.2), (0.06, 0.06), (0.18, 0.1), (0.1, 0.3))
# A frame covered only by the outlines of cards named from a corner (drawn whole from there, over the cards laid on
# them: the index of a card above such a card lies inside its outline) is looked at too, its corner on no card read,
# in a hand the cards read leave UNDER_UNCOVERED of a card uncovered; named where the glyphs there say the same card
# at UNDER_AGREE and no other (tuning seeds 5030-5259, five kinds: +1, none wrong, time 1.00; without the uncovered
# test +3, 1.06 per whole-table still; with neither test nor the glyphs', +7 and 19 wrong).
CROWDED_UNDER = True
UNDER_AGREE = 0.8
UNDER_UNCOVERED = 0.15
DEEP_READS = 4  # the deep pass reads at most this many frames of a hand, the likeliest first, up to one card
# (4 rather than 2: 2 more tuning pocket cards of about 2,330, none wrong, at low resolution and with the whole
# table in view, where a lower card's suit runs into the pip beside it and its frame is not the likeliest; 3: 1.)
# ...and up to one card (DEEP_READS frames) for each card's area the cards read leave uncovered, DEEP_CARDS at
# most: a row with two stacked slots lacks two (tuning scenes: stacked rows +2 community cards, none wrong).
DEEP_CARDS = 3
# An index-search frame that found a glyph row but did not read is read again this far left (card widths): the
# '0' of a '10' whose '1' ran into the card's edge line was taken for the rank, and the frame cut the '1' off.
TEN_JITTER = ((0.0, 0.0), (-0.09, 0.0))
# In a hand that may still lack a card, the next card of a fan shows its index beside a named card's, about a
# third of a card along that card's top (or bottom) edge, where neither the hand's outline has a corner nor the
# index search finds the glyphs apart (a three-card hand's middle card, its suit run into a pip): its frame is read
# SLIDES card widths either way along the named card's x axis, at each of its index corners (``_read_slid``).
# (Tuning scenes, seeds 5030-5069 of both tuning decks, 5070-5109 at low resolution: pocket cards +26 of about
# 2,330 with the second opinion below, none wrong, the real photos' dev half unchanged. Before that opinion, in
# fewer hands: 0.27 and 0.36 alone read 2 fewer, and so did reading each frame without the guessed corners'
# jitter, both at low resolution.) Until 2026-12-06 (0.27, 0.36, 0.45): a tight fan's next card a fifth of a card
# along, or one between two steps, was missed at low resolution where the glyphs at the nearest step do not read
# (tuning seeds 5150-5259 at low resolution: pocket cards +5, none wrong; a step at 0.31 as well named a
# four-colour jack of clubs as spades there, seed 5210).
SLIDES = (0.18, 0.22, 0.27, 0.36, 0.40, 0.45)
# ...nor where that index point lies within SLID_INDEX_CLEAR of a card width of an index box read (as well as
# 0.15 of a card from its middle): a tall index's box reaches further than that, and a frame slid a fifth of a card
# off a card's own corner reads its index's right half (white-cloth four-colour seed 5123, at LIGHT_EDGE_LOW 25: a
# six of hearts' half read a five at 0.93, the frame's point 0.02 of a card off the six's box).
SLID_INDEX_CLEAR = 0.05
# Such a frame is a guess with neither an outline corner nor a glyph pair behind it: its card is named only where the
# corner classifier, on the same frame, names the same card too (at any confidence; SLID_SECOND). Reading frames in
# more hands (a card named from both corners counted once) gave 3 wrong reads in 36 on the tuning scenes, an edge
# line and a pip taken for a jack of diamonds among them; the classifier named another card or none at each, and
# the same card at 31 of the 33 right ones (those more hands, so seconded: 6 more pocket cards than before, none
# wrong). The classifier looks at all of a hand's frames in one batch first, and only those where it names a card
# not named yet are read glyph by glyph (the same reads, the pass 2.5 times cheaper).
SLID_SECOND = True
# ... and (``Reader.slid_agree``) at the threshold where the corner classifier says the same card at this or more
# (two opinions that agree; on the tuning scenes no card not there reached 0.67 at a slid frame).
SLID_AGREE_NET = 0.85
SLID_HULL = True  # a slid frame's index point is tested against the hand's convex hull (``_read_slid``)
# A card named from two corners needs one of them to give it at least this share of its belief on its own.
ONE_CORNER_MIN = 0.5
# A corner this clear on its own (rank's top probability times suit's) that names another card than the corners
# together contradicts them (``Reader._contradict``).
CONTRADICT_CLEAR = 0.5
# The whole-corner classifier (reader_corner) names a whole card the glyphs left unnamed only when both its index
# corners say the same card, each with rank and suit probabilities multiplied at least this high (trained with
# label smoothing 0.05, a sure corner gives about 0.9); at a guessed corner it seconds a glyph read below the
# margin when it names the same card at this much (as an enrolled deck's prototypes do).
CORNER_NET_MIN = 0.8
# A guessed corner whose glyphs did not read (none found, or no card clear of the threshold) is read whole by the
# corner classifier at the end of the still, where no card named by then explains it, and named at NET_ALONE_MIN or
# more: at low resolution the glyph locator is what fails (a jack's thin stroke pales into the paper, a soft 9
# breaks up). (Held-out font corners: 0.24 % of those named at 0.9 wrong, 0.29 % at 0.85; on the tuning scenes a
# face-down card's pattern was named a ten of hearts at 0.86, and 0.9 read 2 pocket cards fewer of 200.) Frames are
# grouped by place (origins within PLACE card widths: jittered tries of one corner), places
# where the glyph locator found a rank over a suit first; each place's first frame is read, then the others of a
# place whose first frame named a card at NET_LOOK or more; at most NET_FRAMES in each of the two batches (most
# places are glare, pips and pictures, and one look tells; 12 read every tuning card 64 did; 24 rather than 16,
# with the corner CNN retrained on table frames, read 3 more tuning pocket cards of 1,562, none wrong, at no cost
# interleaved timing could tell from the machine's noise).
NET_ALONE_MIN = 0.9
NET_LOOK = 0.3
NET_FRAMES = 24
# A guessed corner the glyphs name under NET_VETO_UNDER is not named where the whole-corner classifier names another
# card from the same frame at CORNER_NET_MIN or more (``Reader._net_denies``; left to ``_read_unnamed``, which asks
# the classifier first): white-cloth four-colour seed 5039, at LIGHT_EDGE_LOW 25, an outline corner of a six of
# clubs read a queen at 0.71, the classifier 0.85 for the six. Without an enrolled deck only (its prototypes settle
# a frame for that deck). On the 1,200 tuning tables and the dev photos no read changed at LIGHT_EDGE_LOW 40.
NET_VETO_UNDER = 0.9
# A card the network half believes at a frame read whole (NET_ALONE_MIN's; REFINE_LOOK or more) is read again about it,
# REFINE_SHIFTS (card widths along its axes) each at REFINE_TURNS (degrees), for the REFINE_PLACES likeliest cards,
# and named where one of them says it at NET_ALONE_MIN and REFINE_AGREE of them say it (``Reader._refined``).
# (Low-resolution tuning scenes: 7 more pocket cards of 804 with the corner CNN of 2026-12-01's fourth session, 6
# with the one retrained on table frames after it, none wrong; 6 places and a 0.5 look read no more and cost a
# tenth of a second; shifts of 0.05 read one fewer.)
REFINE_LOOK = 0.6
REFINE_PLACES = 2
REFINE_TURNS = (0.0, -4.0, 4.0)
REFINE_SHIFTS = tuple((dx, dy) for dx in (-0.03, 0.0, 0.03) for dy in (-0.03, 0.0, 0.03))
REFINE_AGREE = 3
# ...or where all those frames but REFINE_ABSTAIN (which say no card) say it and none says another card, their
# confidences' geometric mean at REFINE_POOLED_MIN or more: a soft index the network names alike about its frame, never
# at NET_ALONE_MIN. (Tuning scenes: +7 pocket cards of about 2,330, none lost, no wrong read; real dev photos softened
# +2, plain the same, no read naming a card not there. Of the 31 cards refined on 480 tuning scenes, the 8 not there
# had 5 to 23 of the 26 frames saying them and another card said in 1 to 19; of the 23 there, 15 had 25 or 26, none
# another card, pooled 0.58-0.87.) Two abstentions since 2026-12-03: a jack of hearts whose glyphs merge with its
# picture's frame, said by 24 of 26 frames about its corner (pooled 0.68), none another card, was left unnamed on a
# stacked row (seed 5050 with jokers); on the 1,200 tuning scenes of seeds 5030-5149 and the dev photos no read
# changed.
REFINE_ABSTAIN = 2
REFINE_POOLED_MIN = 0.55
# ...and this about a frame inside a card named from a guessed corner only (UNDER_FRAMES), where that card's own pips
# and lines show: a card's edge over a diamond pip of a five read as the jack of diamonds in all 26 frames, pooled
# 0.58 (the four-colour training deck, seed 5101); a lower queen's index there pooled 0.71 (tuning scenes, low res.).
REFINE_POOLED_UNDER = 0.65
PLACE = 0.06
INDEX_AT = (0.1, 0.18)  # an index's middle in its corner frame (card widths along the frame's axes)
INDEX_BOX = ((0.03, 0.03), (0.17, 0.03), (0.17, 0.33), (0.03, 0.33))  # and its usual box
# A whole card's outline, found at low resolution round a blurred card's halo, is a little too big (small cards at
# 2028 px: 3 % in the median, 6 % at the 90th percentile), and the corner classifier, trained on frames at the
# card's corner, reads a frame 0.05 card widths off far less surely: it reads the outline as found, then shrunk
# about its centre by these factors.
NET_SCALES = (1.0, 0.97, 0.94)
# ...and the corners at all those scales, each naming the same card, their confidences' geometric mean at least this:
# a soft index (a real card at about 85 px wide) the classifier names the same six times, each under CORNER_NET_MIN.
# (Real dev photos: +2 plain, +3 softened, no read naming a card not there; tuning scenes: +1, no wrong read; at
# 0.45, one more of each.)
NET_POOLED_MIN = 0.6
# ...unless the glyph reads of that card's corners deny its suit: together (multiplied) they say another suit with
# at least SUIT_DENY[0] and the classifier's suit under SUIT_DENY[1] (a club 10 px tall on a card 125 px wide, its
# rank read as a bare '1', named a spade by the classifier at all six frames; the glyphs said club at 0.81 and
# 0.96, or at 0.44 and 0.89 against spade at 0.52 and 0.05), and one corner's glyphs alone say that other suit
# with at least SUIT_DENY[0] too (two middling reads of a suit multiply into a sure one: a bold club read a heart
# at 0.52 and 0.57 at the corners of a seven the classifier named 7c at 0.93 and 0.94; and corners whose glyphs read
# as hardly any suit, all four under 0.03, normalise into one). Two readers that contradict each other surely name
# nothing.
SUIT_DENY = (0.8, 0.15)
# A whole card its glyphs name under this confidence is also read by the whole-corner classifier; sure of another
# card at both corners (CORNER_NET_MIN), not denied its suit, it names the card instead.
NET_CHECK = 0.9
# ...and so is one whose rank either corner's glyphs read under this: two corners agreeing on a weak rank multiply
# into a sure card (a blurred 6 read Q at 0.61 and 0.64 at its two corners was named Qc at 0.92; the network said
# 6c at 0.89).
NET_CHECK_RANK = 0.7
# Guessed corners inside a card named from a guessed corner only (its outline extrapolated from that corner) are
# read by the corner classifier too, after the others, up to this many places: the card named may be the lower
# of two, its extrapolated outline running under the upper card's index. (Tuning scenes: +11 pocket cards, none
# lost, no wrong read; 8 places: +8.)
UNDER_FRAMES = 16
# Paper that no card read explains is searched for cards by their two indices (``index_pairs``) where it is at
# least this much of a card's area: a card lost in what it lies on, not the sliver of a hand's lower card.
UNEXPLAINED_CARDS = 0.6
LOOSE_CARDS = 0.25  # paper no read explains, at least this much of a card's area, is searched for lone indices
# ...and at most this many cards' area: the search costs some 30 ms a card's area, and more paper than that is a
# white tablecloth (one whose hands hold a card the search finds is some 30 cards big at the right card size; one
# taken at a card size three times too small was 480, and cost 1.5 s).
LOOSE_MOST = 40
LOOSE_MIN = 0.85  # ...and an index there named at this confidence at least (labels, print: no hand's edges vouch)
# An edge hand whose middle a card read whole covers is searched so too where the cards read leave this much of a
# card's area of it uncovered (as a hand's deep pass, UNCOVERED; tune_ab: white cloth pocket +4, none wrong).
LOOSE_UNCOVERED = 0.15
# ...and so is one whose middle lies in a hand, where the hands and the cards read leave LOOSE_BEYOND of a card of
# it uncovered (a stacked slot's lower card whose strip the paper mask lost; tune_ab, five kinds: at 0.15, +9 cards
# and none wrong, but 1.08 the time of a whole-table still; at 0.25, six of those nine, 1.01).
LOOSE_BEYOND_HANDS = True
LOOSE_BEYOND = 0.25
# ...not counting strips of it LOOSE_THIN raster pixels wide or less (16 to a card width): the region edges
# enclose lies a pixel or two outside the hand's outline all round, and round a small card's hand of three that
# ring alone made a quarter of a card, so nearly every hand of a whole-table still was searched again, for nothing
# (tune_ab, five kinds and the dev photos: no card differs; at 2, a white-cloth card lost).
LOOSE_THIN = 1
LOOSE_FRAMES = 4  # ...reading at most this many frames in each region (and in each pass)
INDEX_PAIRS_SIDE = 1400  # ...at this many pixels along the picture's longer side, at most
# A card-shaped region taken for a back (Detection.backs), no card read in it, is read as a whole card where the
# whole-corner classifier names a card at one of its index corners at this or more (``Reader._face_up_back``): a
# face-up card mostly in shade or under something dark (a basket's handle across a nine whose index stood clear).
# On a back's corners the classifier names none. Dev photos +1; the tuning seeds (5150-5259 def/lo, 5030-5149 all
# five kinds) unchanged.
BACK_FACE_NET = 0.5
# Card sizes (Detection.size_from) taken as they are; the others (a hand's edges, a close-up, outlines from edges)
# are checked against the cards found by their two indices, and replaced where those differ by over SIZE_AGREES.
SURE_SIZES = ("hint", "singles", "pairs", "rows")
SIZED = SURE_SIZES + ("hands",)  # card sizes sure enough to search only the paper round what no read explains
# ...and to search for lone indices (``_read_loose``), which a close-up card's size is too (one or two cards near
# the camera, one under a coat: its lone index read; dev photos +1, none wrong)
LOOSE_SIZES = SIZED + ("close-up",)
SIZE_AGREES = 1.3
SIZE_CARDS = 3  # ...the size taken from at most this many such cards
HANDS_TOO_BIG = 0.15
# ...and also, once the still is read, where the indices read stand under INDEX_SMALL of the card size across in
# the median (rank and suit together, _index_share): a usual deck's 0.25-0.36 on the tuning scenes, a "peek"
# index about 0.18; a size from hands 2.7-2.9 times too big gave 0.12-0.13, and on the four-colour deck (whose
# indices stand at some 0.39 of a card) 2.1 times too big gave 0.19. A peek deck's stills pay the search in vain.
INDEX_SMALL = 0.2
# Card sizes checked, once the still is read, against two or more whole cards named from edge outlines (both
# corners agreeing; ``Reader.edge_sizes``), where those differ by over SIZE_AGREES.
EDGE_SIZED = ("hands", "rows")
# A still that named no card, face-up paper unread there, is read again at these multiples of its card size
# (tables and photos whose size came out 0.2-0.5 or 2 times the cards', from clutter or a card's picture).
SIZE_RETRIES = (1.3, 1.7, 2.2, 3.0, 4.0, 5.5, 0.7, 0.5)
RETRY_MIN_CARD = 0.03  # ...each one of at least this share of the picture's longer side (whole-table views: 0.045)
RETRY_MAX_CARD = 0.9  # ...and at most this share of its shorter side
# ...and a still that read nothing at all (no back either) is, where outlines from edges were seen, though no
# paper was left: a nine on a brightened page whose edge outlines said a card is an eighth of its size.
RETRY_ON_EDGES = True
# A still in which nothing at all was found (no card, no back, no paper that did not read) is read once more
# white-balanced on its brightest pixels and brightened (``_normalised``: the top NORMALISE_TOP of each pixel's
# brightest channel made grey, that channel's 99th percentile raised to NORMALISE_TO), and that read stands where it
# names a card. Paperness (V - S) is what finds cards, and a dim card under a bluish cast is more saturated than
# bright: a dev photo darkened (gamma 1.8, ``tools/photo_variants.py``) had no paper at all. Dev photos as taken
# 254 -> 255 (IMG_2446's ace of hearts on a white box), softened 247 -> 249, none naming a card not there
# (``tools/tune_ab.py --old HEAD --photos-only``); darkened 247 -> 248 and JPEG q30 244 -> 245
# (``tools/photo_variants.py --variants dark,jpeg --old ef24076``; brightened and warm unchanged). Never on a table
# with anything on it, so the tuning tables cannot reach it; an empty table is read twice.
NORMALISE_EMPTY = True
NORMALISE_TOP = 0.03
NORMALISE_TO = 235.0
BACKS_GROWN = 1.2  # a back's outline grown so about its centre holds the white edges of a fan of backs
BARE_INK = 0.25  # ...and paper with under this share of what it encloses off the paper mask is bare (glare)
# A lone whole card whose index did not read is named by its pips (``pips``) where its short side is within this
# share of the card size (a pair of cards side by side, 1.4 times a card, can lay out four pips as a four does),
# every pip's shape says one suit at PIP_SUIT on average (on the tuning scenes' community cards, the court cards
# whose frame or picture passed for pips all stood under 0.35), and the read's confidence is that times PIP_TRUST.
PIP_SIZE = 0.15
PIP_SUIT = 0.6
PIP_TRUST = 0.9
PIP_RED = 35  # pips this much redder than green are a red suit's (the index reader's bar)
PIP_MIDDLE = 0.06  # card heights off the middle line within which a pip's way up is not known
# A covered card's visible part, wider than tall (``Reader._read_truncated``): its long side this many card widths,
# where the card size is sure.
TRUNCATED_LONG = (0.8, 1.25)
QUAD_JITTER = (0.97, 1.03)  # an unread whole card's outline scaled so about its centre, read again
FAINT = 0.6  # an unread card is read again with the ink threshold times this (pale or thin-stroked indices)
MIN_RANK_OVER_SUIT = 0.55  # at a guessed corner, a rank glyph shorter than this times the suit below it is a sliver


def models_dir() -> Path:
    """``GANG_MODELS`` if set, else ``models/`` at the repository root (beside the package)."""
    env = os.environ.get("GANG_MODELS")
    return Path(env) if env else Path(__file__).resolve().parents[2] / "models"


@dataclass
class CornerRead:
    """What one corner index says: per-class probabilities (13 ranks, 4 suits), joker belief, glyph features."""

    rank_p: np.ndarray
    suit_p: np.ndarray
    joker: float
    features: np.ndarray | None  # rank + suit glyph features (for enrolment prototypes)
    red: bool
    box: np.ndarray | None  # 4x2 pixels around the index
    glyphs: tuple[tuple[float, float], tuple[float, float], int] | None = None  # rank, suit centres; rank top
    # A 3, 5 or Q whose left side the frame's border cuts, at a guessed corner: perhaps the right half of an 8 or
    # a 6, or a 10's '0' (``CUT_RANKS``; the frame a little off the card's edge); it needs ``CUT_MARGIN`` more to
    # be named there.
    cut: bool = False
    suit_red: float = 0.0  # the suit's ink, red less green (0-255 levels: black and grey about 0, orange 60 up)

    def card_scores(self) -> np.ndarray:
        """52 log-scores, card id order (rank_index * 4 + suit_index)."""
        return card_log_scores(self.rank_p, self.suit_p)


def _suit_denied(reads: list[CornerRead], code: str) -> bool:
    """The glyph reads of a card's corners deny ``code``'s suit (``SUIT_DENY``): their suit probabilities
    multiplied (as ``Reader.decide`` multiplies the corners) and normalised give another suit at least
    ``SUIT_DENY[0]`` and ``code``'s under ``SUIT_DENY[1]``, and one corner alone gives that other suit at least
    ``SUIT_DENY[0]``. False where no corner's glyphs read."""
    if not reads or len(code) != 2 or code[1] not in SUITS:
        return False
    probs = np.array([np.asarray(r.suit_p, np.float64) for r in reads])
    joint = np.prod(probs + 1e-6, axis=0)
    joint = joint / joint.sum()
    k = SUITS.index(code[1])
    other = int(np.argmax(np.where(np.arange(len(SUITS)) == k, -1.0, joint)))
    return float(joint[k]) < SUIT_DENY[1] and float(joint[other]) >= SUIT_DENY[0] and \
        float(probs[:, other].max()) >= SUIT_DENY[0]


def card_log_scores(rank_p: np.ndarray, suit_p: np.ndarray) -> np.ndarray:
    """The 52 cards' log-scores from 13 rank and 4 suit probabilities, card id order (rank_index * 4 + suit_index)."""
    return (np.log(rank_p + 1e-6)[:, None] + np.log(suit_p + 1e-6)[None, :]).ravel()


class Reader:
    """The card reader. ``deck``: an enrolled deck whose prototypes replace the generic classifiers."""

    def __init__(self, model_dir: str | Path | None = None, deck: "EnrolledDeck | None" = None,
                 threshold: float = DEFAULT_THRESHOLD):
        d = Path(model_dir) if model_dir else models_dir()
        self.model_dir = d
        self.rank_model = load_classifier(d, "rank")
        self.suit_model = load_classifier(d, "suit")
        # Whole cards the glyphs leave unnamed are asked of the whole-corner classifier, where it is shipped.
        self.corner_net = load_corner_net(d)
        self.deck = deck
        self.threshold = threshold
        # A card's short side over the picture's width, measured at calibration; None: estimated per picture.
        self.card_width_frac: float | None = None
        # Look for corner indices inside hands directly, where no outline corner leads to them (index_search).
        self.search_indices = True
        # ... and, in a hand that still lacks a card, pairs whose card corner lies on another card of the hand.
        self.on_card_frames = True
        # ... and, last, in a hand only one of whose cards read, the whole-corner classifier at every turn of its
        # outline (_read_outline_scan).
        self.scan_outlines = True
        # Find whole cards by their two indices where no outline shows them (cards on white paper, clutter).
        self.pair_indices = True
        # Report a card's outline found from its edges alone (``detect.edge_quads``: a hand of backs whose border and
        # pattern are neither paper nor far from the mat's colour) that looks like a back as face-down cards.
        self.edge_backs = True
        # Report a hand that no card was read in and that looks like face-down cards as those (_hand_back).
        self.hand_backs = True
        # Search a back candidate that a face-up card was read in for the cards under it, like a hand.
        self.faced_backs = True
        # Name a lone whole card whose index did not read by its pips (``_read_pips``).
        self.pip_reads = True
        # ...and an outline found from edges alone, about a card big, whose corners did not read.
        self.edge_pips = True
        # Name a slid frame's card where its glyphs and the classifier agree a little under the usual margin, or
        # the classifier, half believing it, says it surely about that frame (``_read_slid``).
        self.slid_agree = True
        # Outline-scan a hand two cards or more of which read too, at the corners whose index no card read covers
        # (``_read_outline_scan``).
        self.scan_crowded = True
        # Read the outline scan's half-believed frames again about themselves (``_refined``, its sure way only).
        self.scan_refine = True
        # Then the index locator's frames in a hand that still lacks a card (``_read_located``), where shipped.
        self.locator = load_locator(d)
        # ...and in the hands set aside as face-down cards (a face-up hand of court cards can pass for backs).
        self.locate_backs = True
        # ...and, last, over the paper anywhere in the picture that no card named covers (_read_everywhere).
        self.locate_everywhere = True
        # A card-shaped region taken for a back, no card read in it, may be read as a whole card (_face_up_back).
        self.backs_read = True
        # A card size from the hands' edges is checked against two or more whole cards named from edge outlines.
        self.edge_sizes = True
        # After the scan, the deep index search in a hand no card was read in before it and that still lacks one.
        self.late_deep = True
        # Read a still that named no card again at other card sizes (SIZE_RETRIES), unless backs explain its paper.
        self.size_retries = True
        self._normalising = False
        self._unnamed: list[_Unnamed] = []  # guessed corners left unnamed in the still being read
        # OpenCV builds its Lab tables on first use (0.3 s); pay that here, not on the first still.
        cv2.cvtColor(np.zeros((2, 2, 3), np.uint8), cv2.COLOR_BGR2LAB)

    # ---- one corner -------------------------------------------------------------------------------------
    def read_corner(self, image: np.ndarray, origin: npt.ArrayLike, x_axis: npt.ArrayLike, y_axis: npt.ArrayLike,
                    outset: float = 0.0, guessed: bool = False, faint: float = 1.0) -> CornerRead | None:
        """Read the index at one card corner. ``outset`` (card widths) starts the frame that much outside
        the corner, for corners guessed from an outline (which sit a little inside the card); ``guessed``
        reads such a corner more warily: glyphs cut by the patch border and run-together glyphs are not read."""
        return self._corner(image, origin, x_axis, y_axis, outset, guessed, faint)[0]

    def _corner(self, image: np.ndarray, origin: npt.ArrayLike, x_axis: npt.ArrayLike, y_axis: npt.ArrayLike,
                outset: float, guessed: bool, faint: float = 1.0) -> tuple[CornerRead | None, int]:
        """``read_corner``, and whether a frame a little further left might read there (true): the locator found a
        glyph row (``GLYPH_ROW``), or ink the frame's left border cuts (``INK_AT_LEFT``); else 0."""
        o, xa, ya = (np.asarray(v, np.float32) for v in (origin, x_axis, y_axis))
        o = o - outset * (xa + ya)
        patch = corner_patch(image, o, xa, ya)
        g, at_left = locate_index_why(patch, whole_only=guessed, faint=faint)
        return self.read_glyphs(g, patch, o, xa, ya, guessed), GLYPH_ROW if g is not None else INK_AT_LEFT * at_left

    def read_patch(self, patch: np.ndarray, origin: npt.ArrayLike | None = None, x_axis: npt.ArrayLike | None = None,
                   y_axis: npt.ArrayLike | None = None, guessed: bool = False) -> CornerRead | None:
        """Read one corner patch (``reader_glyph.corner_patch``); ``origin`` and the axes place its index box in
        the picture."""
        return self.read_glyphs(locate_index(patch, whole_only=guessed), patch, origin, x_axis, y_axis, guessed)

    def read_glyphs(self, g: IndexGlyphs | None, patch: np.ndarray, origin: npt.ArrayLike | None = None,
                    x_axis: npt.ArrayLike | None = None, y_axis: npt.ArrayLike | None = None,
                    guessed: bool = False) -> CornerRead | None:
        """Classify the glyphs ``locate_index`` found in ``patch``."""
        if g is None or g.suit is None or g.suit_box is None:
            return None  # no suit below the rank (or one the locator could not part from it): not an index
        if guessed and g.rank_box[3] < MIN_RANK_OVER_SUIT * g.suit_box[3]:
            return None  # a sliver of a glyph the frame cut, not a rank: a bare bar passes for a J or a 1
        rk = self.rank_model.classes
        sk = self.suit_model.classes
        rb, sb = glyph_box(g.rank), glyph_box(g.suit)
        rf = glyph_features(g.rank, rb)
        sf = glyph_features(g.suit, sb)
        pr = self.rank_model.predict_proba_from(rf[None], rb[None])[0]
        ps = self.suit_model.predict_proba_from(sf[None], sb[None])[0]
        rank_p = np.array([pr[rk.index(r)] for r in RANKS])
        suit_p = np.array([ps[sk.index(s)] for s in SUITS])
        if g.split:  # the suit's top is lost: trust its shape less (same total, flatter between the four)
            soft = np.sqrt(suit_p)
            suit_p = soft * (suit_p.sum() / max(float(soft.sum()), 1e-9))
        joker = float(ps[sk.index("letter")] * pr[rk.index("J")])
        # Red ink: the rank's and the suit's redness together, each from its stronger half of ink (a thin rank at
        # low resolution pales to pink at its rims; the suit is a solid shape).
        ink, suit_ink = glyph_colours(g, patch)
        red = bool((ink[2] - ink[1] + suit_ink[2] - suit_ink[1]) / 2 > 35)
        box = None
        if origin is not None:
            from companion.vision.reader_glyph import PATCH_PX
            x, y, w, h = g.rank_box
            sx, sy, sw, sh = g.suit_box
            x0, y0, x1, y1 = min(x, sx), y, max(x + w, sx + sw), sy + sh
            o, xa, ya = (np.asarray(v, np.float64) for v in (origin, x_axis, y_axis))
            box = np.array([o + (u / PATCH_PX) * xa + (v / PATCH_PX) * ya
                            for u, v in ((x0, y0), (x1, y0), (x1, y1), (x0, y1))], np.float32)
        x, y, w, h = g.rank_box
        sx, sy, sw, sh = g.suit_box
        centres = ((x + w / 2, y + h / 2), (sx + sw / 2, sy + sh / 2), y)
        # The whole index (rank and suit together, however the locator split them) as a small normalised
        # picture: an enrolled deck matches these against its own.
        ux0, uy0 = min(x, sx), min(y, sy)
        ux1, uy1 = max(x + w, sx + sw), max(y + h, sy + sh)
        ink = g.ink[uy0:uy1, ux0:ux1] if g.ink is not None else ink_map(patch[uy0:uy1, ux0:ux1])[0]
        t = cv2.resize(ink, (16, 32), interpolation=cv2.INTER_AREA).ravel()
        t = t - t.mean()
        t = t / (np.linalg.norm(t) + 1e-6)
        feats = np.concatenate([rf, sf, t.astype(np.float32)])
        cut = guessed and g.rank_box[0] <= 0 and RANKS[int(np.argmax(rank_p))] in CUT_RANKS
        return CornerRead(rank_p, suit_p, joker, feats, red, box, centres, cut=cut,
                          suit_red=float(suit_ink[2] - suit_ink[1]))

    def decide(self, reads: list[CornerRead], guessed: bool = False
               ) -> tuple[str | None, float, tuple[tuple[str, float], ...]]:
        """Combine the corners of one card into (code or None, confidence, runner-ups). ``guessed``: the
        corner was guessed from an outline; an enrolled deck does not overrule an abstention there (a frame
        that is off matches some prototype about as well as the right one)."""
        if not reads:
            return None, 0.0, ()
        code, conf, alts = self._generic(reads)
        if self.deck is not None and code is None and not guessed and not self._contradict(reads):
            # The enrolled deck's own prototypes settle what the generic classifiers leave open.
            return self.deck.decide(reads)
        return code, conf, alts

    def _generic(self, reads: list[CornerRead]) -> tuple[str | None, float, tuple[tuple[str, float], ...]]:
        joker = float(np.mean([r.joker for r in reads]))
        scores = cast(np.ndarray, sum(r.card_scores() for r in reads))  # reads is not empty: never sum's start 0
        p = np.exp(scores - scores.max())
        # Reads of both corners multiply; renormalise over the 52 cards, then discount junk mass.
        mass = float(np.mean([r.rank_p.sum() * r.suit_p.sum() for r in reads]))
        p = p / p.sum() * mass
        order = np.argsort(-p)[:3]
        best = int(order[0])
        alts = tuple((str(Card(int(i))), float(p[i])) for i in order[1:])
        if joker > 0.5 and joker > p[best]:
            code = "JR" if np.mean([r.red for r in reads]) >= 0.5 else "JB"
            return code, joker, alts
        conf = float(min(max(p[best], 0.0), 1.0))
        if self._contradict(reads) or not _ink_fits(Card(best).suit, reads):
            return None, conf, alts
        if len(reads) > 1 and max(_share(r, best) for r in reads) < ONE_CORNER_MIN:
            # Two corners of one card are not independent witnesses: both torn between an 8 and a 10 (one
            # soft print, one blur), multiplied they named the 8 at 0.70. One corner must favour the card alone.
            return None, conf, alts
        return (str(Card(best)) if conf >= self.threshold else None), conf, alts

    # ---- whole pictures ---------------------------------------------------------------------------------
    def read_still(self, image: np.ndarray, detection: Detection | None = None) -> list[CardRead]:
        """All cards in a full-resolution picture: whole cards, visible corners of hidden ones, backs. Any picture
        ``sources.as_bgr`` takes (grey, BGRA, 16-bit, floats); anything else raises ``ValueError`` naming it."""
        image = as_bgr(image)
        hint = self.card_width_frac * image.shape[1] if self.card_width_frac else None
        det = detection or detect_cards(image, card_width_hint=hint)
        if detection is None and hint is None and self.pair_indices and det.size_from not in SURE_SIZES and (
                det.size_from != "hands" or det.card_width > HANDS_TOO_BIG * max(image.shape[:2])):
            # No lone card gave the card size (a hand's edges, a close-up, outlines from edges did): cards found
            # by their two indices that read give it surely, and the picture is looked at again with it (on a
            # white cloth the paper mask runs a row of cards into one "hand", whose edges say a card is three
            # times its size). Where the two sizes agree within SIZE_AGREES, the detector's stands. A size from
            # hands is checked only where a card would be over HANDS_TOO_BIG of the picture across (a whole-table
            # still has several hands and no lone card; searching them costs more than a tenth of a second).
            det = self._resized(image, det) or det
        self._unnamed = []
        out: list[CardRead] = []
        half_backs: list[CardRead] = []  # halves of a split quad taken for backs: perhaps a court card or two
        pairs: list[tuple[float, list[float]]] = []  # split quads both of whose halves read: their short sides
        for quad in det.quads:
            read = self._read_quad(image, quad)
            # Two cards touching along their long sides look like one card 1.43 times too big; a court card's
            # picture beside a face makes the pair look like a back, but one half of it is plain paper.
            if (read.code is None and not read.face_down) or (read.face_down and not all(
                    _looks_like_back(image, q) for q in _halves(quad))):
                halves = [self._read_quad(image, q) for q in _halves(quad)]
                if any(self._named(h) for h in halves):
                    out += halves
                    half_backs += [h for h in halves if h.face_down]
                    if all(self._named(h) for h in halves):
                        pairs.append((short_side(quad), [short_side(h.quad) for h in halves]))
                    continue
            out.append(read)
        if detection is None and hint is None and det.size_from == "singles" and any(
                abs(side / det.card_width - 1) < 0.1 for side, _ in pairs):
            # The lone "card" that gave the card size was two cards side by side (both halves read): the size was
            # 1.43 times too big for everything else (corners, hands, backs). Looked at again with the halves'.
            return self.read_still(image, detect_cards(image, card_width_hint=float(np.median(
                [s for _, halves in pairs for s in halves]))))
        before_rejoin = {id(r) for r in out}
        out = self._rejoin(image, out)
        rejoined = [short_side(r.quad) for r in out if id(r) not in before_rejoin and self._named(r)]
        if detection is None and hint is None and det.size_from == "pairs" and rejoined:
            # The lone "cards" were taken for pairs side by side, and the size from the hands' edges or a row
            # (a hand's short stretches said a card is 0.7 of its size), but pieces of that size make a card
            # that reads whole, both corners agreeing: the pairs were cards. Looked at again with its size.
            return self.read_still(image, detect_cards(image, card_width_hint=float(np.median(rejoined))))
        truncated: list[tuple[np.ndarray, CardRead]] = []  # edge outlines read as a card partly covered
        edge_backs: list[np.ndarray] = []  # edge outlines that look like backs
        edge_named: list[float] = []  # short sides of the edge outlines named (both corners agree): whole cards
        for quad in det.edge_quads:
            if any(_inside(quad.mean(axis=0), r.quad) for r in out):
                continue
            read = self._read_quad(image, quad, both=True)
            for f in EDGE_SHRINK:  # an outline taken in with the halo round a card: the frame starts off the card
                if (read.code is not None and not read.face_down) or short_side(quad) * f < 0.95 * det.card_width:
                    break
                c = quad.mean(axis=0)
                read = self._read_quad(image, (c + f * (quad - c)).astype(np.float32), both=True)
            if (read.code is None and not read.face_down and self.edge_pips and det.size_from in SURE_SIZES
                    and _pip_sized(quad, det.card_width)):
                # A card's outline from its edges whose corners did not read (a dim card on carpet, a soft
                # index): its pips, as for a lone whole card (``_read_pips``; a card-sized outline on clutter
                # rarely lays out a number card's pips, all of one suit's shape).
                read = self._read_pips(image, read) or read
            if read.code is not None and not read.face_down:
                out.append(read)
                edge_named.append(short_side(read.quad))
            elif (cut := self._read_truncated(image, quad, det.card_width if det.size_from in SURE_SIZES
                                              else None)) is not None:
                truncated.append((quad, cut))
            elif read.face_down and self.edge_backs and _edge_back(image, quad, det.card_width):
                edge_backs.append(quad)
        corner_reads, far = self._read_corners(image, det.corners, det.card_width)
        # Fanned face-down cards: their pattern breaks into countless glyph-sized pieces, all searched for indices
        # in vain. Not searched where none of the hand's outline corners read. (Its corners are still read: a
        # hand of court cards can pass for backs, and a corner of it reads there. But not retried further out:
        # on a back's pattern every frame finds ink, and five more frames a corner cost 20 ms a still for no card
        # on the tuning scenes.)
        hands: list[np.ndarray] = []
        backs: list[np.ndarray] = []  # hands set aside as face-down cards
        for h in det.hands:
            set_aside = any(_same_blob(h, quad, det.card_width) and _looks_like_back(image, quad)
                            for quad in det.backs) and not any(
                r.index_box is not None and _inside(r.index_box.mean(axis=0), h) for r in corner_reads)
            (backs if set_aside else hands).append(h)
        # A table no card was named on so far (before the flop: every hand face down) whose hands look like fanned
        # backs (``_hand_back``) is not searched in them: 0.3-1.0 s a still on such tables, for nothing. Only
        # there: where cards were named, a face-up hand of court cards at low resolution can pass for backs
        # (tune_ab: set aside so on every table, two queens lost).
        early: list[np.ndarray] = []
        if EARLY_BACKS and self.hand_backs and not any(self._named(r) for r in out + corner_reads):
            early = [q for h in hands if (q := _hand_back(image, h, out + corner_reads, det.card_width)) is not None]
            hands = [h for h in hands if not any(_same_blob(h, q, det.card_width) for q in early)]
        far = [c for c in far if not any(_near_outline(c.origin, h, FAR_BACK * det.card_width) for h in backs)]
        corner_reads = self._dedupe(corner_reads, out, det.card_width)
        # A card-shaped blob that did not read may be two cards, one mostly on the other (its outline fills a
        # card's rectangle): search it for indices too, like a hand.
        # So may the half of a split quad that looked like a back beside a card read: a hand of three cards side by
        # side is card-shaped too, and the court cards beside the one read are mostly picture.
        unread = [r.quad for r in out if r.code is None and not r.face_down] + [r.quad for r in half_backs]
        if self.faced_backs:
            # A "back" holding a face-up card read: a hand in dim light whose paper the paper mask mostly missed
            # (the mask's part of it, the hand, holds the top card only); the cards under it are searched too.
            unread += [q for q in det.backs if any(
                self._named(r) and _inside(r.centre, q) for r in out + corner_reads)]
        bare: list[np.ndarray] = []  # hands no card was read in by the index search (no deep pass there)
        if self.search_indices and (hands or unread):
            corner_reads += self._read_indices(image, hands + unread, det.card_width, out, corner_reads, bare=bare)
        if self.search_indices and hands:
            corner_reads += self._read_slid(image, hands, out, corner_reads, det.card_width)
        if far:  # (after the slid frames: a card read there explains the outline corners far frames would try)
            corner_reads += self._read_far(image, far, out + corner_reads, det.card_width, det.hands)
        # A deck holds each card once: a corner read naming a card already read elsewhere is that card seen
        # again from a badly placed corner, not a second copy.
        named = {r.code for r in out if r.code}
        best: dict[str | None, CardRead] = {}  # corner reads all name a card (_read_corners)
        for r in corner_reads:
            if r.code in named:
                continue
            if r.code not in best or r.confidence > best[r.code].confidence:
                best[r.code] = r
        if best:  # a whole "card" that did not read but holds cards read from their corners was a tight fan
            out = _without_tight_fans(out, list(best.values()))
            # and a half taken for a back that holds an index read was faces
            out = [r for r in out if not any(r is h for h in half_backs) or not any(
                b.index_box is not None and _inside(b.index_box.mean(axis=0), r.quad) for b in best.values())]
        out += list(best.values())
        from_corners = {id(r) for r in best.values()}  # outlines extrapolated from a corner
        # A card still unread, with no card read inside it, is read again with fainter ink taken in: a pale red
        # or thin-stroked index at low resolution breaks into pieces at the usual threshold.
        for k, r in enumerate(out):
            if r.code is None and not r.face_down and not any(
                    _inside(b.centre, r.quad) for b in out if b.code is not None and not b.face_down):
                again = self._read_quad(image, r.quad, faint=True)
                if again.code is None or again.face_down:
                    again = self._read_scaled(image, r) or again
                if (again.code is None or again.face_down) and self.pip_reads and id(r) not in from_corners and \
                        _pip_sized(r.quad, det.card_width):
                    # Last, its pips (a soft or ghosted index; no card read in it, so no hand of two).
                    again = self._read_pips(image, r) or again
                if again.code is not None and not again.face_down:
                    out[k] = again
        before = {id(r) for r in out}
        out = self._read_unnamed(image, out, det.card_width, from_corners)
        from_corners |= {id(r) for r in out if id(r) not in before}
        if self.pair_indices:
            out = self._read_index_cards(image, out, det)
        if self.search_indices:
            out = self._read_loose(image, out, det, from_corners)
        if self.scan_outlines and self.corner_net is not None:
            scanned = self._read_outline_scan(image, hands, out, det.card_width, from_corners, unread)
            out = _without_tight_fans(out, scanned) + scanned
            from_corners |= {id(r) for r in scanned}
        if self.locator is not None and self.corner_net is not None and self.search_indices:
            located = self._read_located(image, hands + (backs if self.locate_backs else []), out,
                                         det.card_width, from_corners, unread)
            out = _without_tight_fans(out, located) + located
            from_corners |= {id(r) for r in located}
            if self.locate_everywhere:
                found = self._read_everywhere(image, out, det)
                out = _without_tight_fans(out, found) + found
                from_corners |= {id(r) for r in found}
        if self.late_deep and bare:
            # A hand no card was read in by the index search, some of whose cards were named since (from a
            # corner frame, by the outline scan): it is face up, and may still hold a card, whose index the deep
            # pass finds (the middle card of three, its index on the card beneath's paper).
            named_now = [r for r in out if self._named(r)]
            late = [h for h in bare if _held(h, named_now, det.card_width)
                    and _lacks_a_card(h, named_now, det.card_width)]
            if late:
                have = {r.code for r in named_now}
                found = self._read_indices(image, late, det.card_width,
                                           [r for r in out if id(r) not in from_corners],
                                           [r for r in out if id(r) in from_corners], deep_only=True)
                for r in found:
                    if r.code not in have:
                        out.append(r)
                        have.add(r.code)
        if self.deck is not None and self.deck.jokers:
            # A whole card no index names (or whose art passed for a back) may be one of the enrolled deck's
            # jokers, told by how its corners look (``EnrolledDeck.joker_in``).
            for k, r in enumerate(out):
                if r.code is None or r.face_down:
                    joker = self.deck.joker_in(image, r.quad)
                    if joker is not None:
                        out[k] = CardRead(joker[0], joker[1], r.quad, "tl", False)
        out += self._truncated_kept(out, truncated)
        # Hands searched for indices in vain that look like face-down cards (no back of the same blob was found:
        # their pattern passed for paper). Only now: set aside before the search, a face-up hand of court
        # cards on the tuning scenes lost a card its search read.
        hand_backs = [q for h in hands if (q := _hand_back(image, h, out, det.card_width)) is not None] \
            if self.hand_backs else []
        hand_backs += early
        for k, quad in enumerate(det.backs + edge_backs + hand_backs):
            # Not a back: a card read there, or an index read inside it (a face-up hand the paper mask missed).
            if not any(_inside(quad.mean(axis=0), r.quad) or (r.code is not None and r.index_box is not None
                                                              and _inside(r.index_box.mean(axis=0), quad))
                       for r in out):
                if self.backs_read and self.corner_net is not None and k < len(det.backs) and \
                        (face := self._face_up_back(image, quad, {r.code for r in out})) is not None:
                    out.append(face)
                    continue
                out.append(CardRead(BACK, 0.8, quad, "none", True))
        if detection is None and hint is None and self.pair_indices and det.size_from in EDGE_SIZED:
            resized = None
            if det.size_from == "hands" and det.card_width <= HANDS_TOO_BIG * max(image.shape[:2]) and \
                    _index_share(out, det.card_width) < INDEX_SMALL:
                # The hands' size went unchecked above, but the indices read are far smaller than any deck's beside
                # a card that size: a row of cards run into a glare spot made one "hand" whose edges said a card is
                # over twice its size. Checked as above (or by the whole cards named from edge outlines, where two
                # or more were: the index pairs are looked for in the hands only, and such a row has none).
                resized = self._resized(image, det, edge_named if len(edge_named) >= 2 else None)
            elif self.edge_sizes and len(edge_named) >= 2:
                # Two or more whole cards named from their edge outlines (both corners agreeing) are the size a
                # card is; the hands' edges or a row may say far less (cards in a grid cut into pieces took the
                # paper's straight stretches: a pale nine on a lit wall, an outline of the real size, was too big
                # to read; two aces touching end to end made a "row" of a card 0.57 of theirs).
                resized = self._resized(image, det, edge_named)
            if resized is not None:  # where the size changes, the picture is read again with it
                return self.read_still(image, resized)
        if detection is None and hint is None and self.size_retries and not any(self._named(r) for r in out) and \
                (hands or unread or (RETRY_ON_EDGES and det.edge_quads and not out)) and \
                not _backs_explain(hands + unread, [r.quad for r in out if r.face_down], det):
            # Nothing named, and face-up paper that did not read (or nothing read at all, but outlines from
            # edges seen: RETRY_ON_EDGES): the card size may be wrong (a lone card under a book, whose "hand" is a
            # piece of it; clutter round a card on a rug or a page, whose pieces said a card is a fifth of its
            # size; a close-up whose biggest piece of paper was two cards). Read again at SIZE_RETRIES of it,
            # bigger first; the first that names a card stands. Backs seen keep it from that only where they
            # explain all that paper (``_backs_explain``: the white edges of fanned backs, or bare paper, glare
            # round them; a table before the flop read again at every size took up to ten times as long for
            # nothing); clutter taken for backs does not. Each size at least RETRY_MIN_CARD of the picture's
            # longer side (where fans of backs broke into pieces, a size a fifth of theirs retried 1-3 s a still
            # for nothing) and at most RETRY_MAX_CARD of its shorter side.
            h, w = image.shape[:2]
            for f in [f for f in SIZE_RETRIES
                      if RETRY_MIN_CARD * max(h, w) <= f * det.card_width <= RETRY_MAX_CARD * min(h, w)]:
                retried = self.read_still(image, detect_cards(image, card_width_hint=f * det.card_width))
                if any(self._named(r) for r in retried):
                    return retried
        if detection is None and hint is None and NORMALISE_EMPTY and not out and not self._normalising:
            even = _normalised(image)
            if even is not None:
                self._normalising = True
                try:
                    evened = self.read_still(even)
                finally:
                    self._normalising = False
                if any(self._named(r) for r in evened):
                    return evened
        return out

    def _read_unnamed(self, image: np.ndarray, reads: list[CardRead], card_w: float,
                      guessed: AbstractSet[int] = frozenset()) -> list[CardRead]:
        """Guessed corners whose glyphs did not read (``_read_guessed`` kept them), read whole by the corner
        classifier, last: only where no card named so far explains them (inside it, or at its index), in one
        batch. Inside a card in ``guessed`` (ids of reads whose outline was extrapolated from a guessed corner)
        is no explanation: that card may lie under the one whose index is there; such places are read after the
        others (``UNDER_FRAMES`` of them), and a card named there is not taken for the guessed card seen again.
        A card named there that is named elsewhere already is that card seen again, not a second copy; an
        unread whole "card" holding a card named here was a tight fan of two."""
        frames, self._unnamed = self._unnamed, []
        if self.corner_net is None or not frames:
            return reads
        named = [r for r in reads if r.code is not None and not r.face_down]
        origins = np.array([f.origin for f in frames], np.float64)
        x_axes = np.array([f.x_axis for f in frames], np.float64)
        index_at = origins + INDEX_AT[0] * x_axes + INDEX_AT[1] * np.array([f.y_axis for f in frames], np.float64)
        free = np.ones(len(frames), bool)
        under = np.zeros(len(frames), bool)  # inside a card named from a guessed corner only
        for r in named:
            inside = _in_quad(index_at, r.quad)
            if id(r) in guessed:
                under |= inside
            else:
                free &= ~inside
            if r.index_box is not None:
                free &= np.linalg.norm(index_at - r.index_box.mean(axis=0), axis=1) >= 0.12 * card_w
        places: list[list[int]] = []  # frames about one place (jittered tries of one corner), by index
        firsts: list[int] = []
        for i in np.flatnonzero(free):
            if firsts:
                d = np.linalg.norm(origins[firsts] - origins[i], axis=1)
                same = (d < PLACE * card_w) & (x_axes[firsts] @ x_axes[i] > 0.9 * float(x_axes[i] @ x_axes[i]))
                if same.any():
                    p = places[int(np.argmax(same))]
                    if not any(np.linalg.norm(origins[j] - origins[i]) < 0.01 * card_w
                               and np.allclose(x_axes[j], x_axes[i], atol=0.01 * card_w) for j in p):
                        p.append(int(i))  # (the same frame tried twice is read once)
                    continue
            places.append([int(i)])
            firsts.append(int(i))
        got: dict[str, CardRead] = {}
        have = {r.code for r in named if r.code is not None}

        def name(todo: list[_Unnamed]) -> list[tuple[str | None, float]]:
            assert self.corner_net is not None
            said = self.corner_net.name(np.stack([frame_input(image, f.origin, f.x_axis, f.y_axis) for f in todo]))
            for f, (code, conf) in zip(todo, said):
                if code is not None and conf >= NET_ALONE_MIN and code not in have and (
                        code not in got or conf > got[code].confidence) and not self._glyphs_deny(image, f, code):
                    got[code] = f.named(code, conf)
            return said

        # Each place's first frame; then the other frames of the places whose first frame looked like an index
        # (a card, if not a sure one): most places are pips and picture, and one look tells.
        # A rank over a suit found there first; places inside a card named from a guessed corner after all others,
        # a few of them.
        places.sort(key=lambda p: not any(frames[j].glyphs for j in p))
        places = [p for p in places if not under[p[0]]][:NET_FRAMES] + \
            [p for p in places if under[p[0]]][:UNDER_FRAMES]
        if not places:
            return reads
        first = [frames[p[0]] for p in places]
        said = name(first)
        rest = [frames[j] for p, (code, conf) in zip(places, said) if code is not None and conf >= NET_LOOK
                and not (conf >= NET_ALONE_MIN and code in got) for j in p[1:]][:NET_FRAMES]
        looked = list(zip(first, said))
        if rest:
            looked += list(zip(rest, name(rest)))
        got.update(self._refined(image, looked, have | set(got), {id(frames[i]) for i in np.flatnonzero(under)}))
        new = self._dedupe(list(got.values()), [r for r in named if id(r) not in guessed], card_w)
        return _without_tight_fans(reads, new) + new if new else reads

    def _refined(self, image: np.ndarray, looked: list[tuple[_Unnamed, tuple[str | None, float]]], have: set[str],
                 under: AbstractSet[int] = frozenset(), pooled: bool = True, look: float = REFINE_LOOK
                 ) -> dict[str, CardRead]:
        """Cards the corner classifier half believes at a frame ``looked`` at (``look``, by default ``REFINE_LOOK``,
        or more, under ``NET_ALONE_MIN``; not in ``have``), read again about that frame, shifted and turned a
        little: a low-resolution outline's corner, or an index search's guess, lies a few hundredths of a card off
        the card's, and the network, trained on frames at the corner, is far less sure there. Named where one of
        those frames says the card at ``NET_ALONE_MIN`` or more and ``REFINE_AGREE`` of them say it at all, or
        where all of them but ``REFINE_ABSTAIN`` say it, none another card, their confidences' geometric mean at
        ``REFINE_POOLED_MIN`` or more (``REFINE_POOLED_UNDER`` about a frame in ``under``, ids of frames inside a
        card named from a guessed corner: that card's own pips and lines are there; not where ``pooled`` is
        False); the ``REFINE_PLACES`` likeliest cards, one batch."""
        assert self.corner_net is not None
        near: dict[str, tuple[float, _Unnamed]] = {}
        for f, (code, conf) in looked:
            if code is not None and code not in have and look <= conf < NET_ALONE_MIN and (
                    code not in near or conf > near[code][0]):
                near[code] = (conf, f)
        todo: list[tuple[str, _Unnamed]] = []
        for code, (_, f) in sorted(near.items(), key=lambda kv: -kv[1][0])[:REFINE_PLACES]:
            for turn in REFINE_TURNS:
                xa, ya = _rotated(f.x_axis, turn), _rotated(f.y_axis, turn)
                for dx, dy in REFINE_SHIFTS:
                    if turn or dx or dy:
                        move = dx * f.x_axis + dy * f.y_axis
                        todo.append((code, _Unnamed(f.origin + move, xa, ya, f.quad + move, False)))
        if not todo:
            return {}
        said = self.corner_net.name(np.stack([frame_input(image, f.origin, f.x_axis, f.y_axis) for _, f in todo]))
        out: dict[str, CardRead] = {}
        for code in {c for c, _ in todo}:
            mine = [(c, conf, f) for (want, f), (c, conf) in zip(todo, said) if want == code]
            votes = [(conf, f) for c, conf, f in mine if c == code]
            if len(votes) < REFINE_AGREE:
                continue
            conf, f = max(votes, key=lambda v: v[0])
            if conf < NET_ALONE_MIN:
                if not pooled or len(mine) - len(votes) > REFINE_ABSTAIN or any(
                        c not in (None, code) for c, _, _ in mine):
                    continue
                # Never sure, but said in all the frames about it (one may abstain), no other card said there.
                conf = _geometric_mean([v for v, _ in votes])
                if conf < (REFINE_POOLED_UNDER if id(near[code][1]) in under else REFINE_POOLED_MIN):
                    continue
            if not self._glyphs_deny(image, f, code):  # (asked only of a card about to be named)
                out[code] = f.named(code, conf)
        return out

    def _glyphs_deny(self, image: np.ndarray, f: _Unnamed, code: str) -> bool:
        """The glyphs at a guessed frame deny the card the corner classifier names there: the frame's top border
        cuts the rank and the card is a rank such a cut fakes (``CUT_TOP_RANKS``), or the suit the glyphs read
        denies its suit (``SUIT_DENY``, one corner)."""
        patch = corner_patch(image, f.origin, f.x_axis, f.y_axis)
        g = locate_index(patch, whole_only=True)
        if g is None:
            return False
        if code[0] in CUT_TOP_RANKS and g.rank_box[1] <= 0:
            return True
        r = self.read_glyphs(g, patch)
        return r is not None and _suit_denied([r], code)

    def _resized(self, image: np.ndarray, det: Detection, sizes: list[float] | None = None) -> Detection | None:
        """The picture detected again with the card size the cards found by their two indices give
        (``_index_card_sizes``; or ``sizes``, whole cards' short sides known already), where it differs from the
        detector's by over SIZE_AGREES; else None."""
        sizes = sizes or self._index_card_sizes(image, det)
        if sizes and not 1 / SIZE_AGREES < float(np.median(sizes)) / max(det.card_width, 1.0) < SIZE_AGREES:
            return detect_cards(image, card_width_hint=float(np.median(sizes)))
        return None

    def _index_card_sizes(self, image: np.ndarray, det: Detection) -> list[float]:
        """The short sides of up to ``SIZE_CARDS`` cards found by their two indices that read: in the hands (where
        the card size came from them; the biggest first, each in its bounding box and a tenth round it), else in
        the whole picture."""
        h, w = image.shape[:2]
        boxes = [(0, 0, w, h)]
        if det.size_from == "hands" and det.hands:
            boxes = []
            for hand in sorted(det.hands, key=lambda o: -cv2.contourArea(o.reshape(-1, 1, 2))):
                x, y, bw, bh = cv2.boundingRect(hand.reshape(-1, 1, 2).astype(np.float32))
                pad = 0.1 * max(bw, bh)
                boxes.append((max(0, int(x - pad)), max(0, int(y - pad)), min(w, int(x + bw + pad)),
                              min(h, int(y + bh + pad))))
        sizes: list[float] = []
        for x0, y0, x1, y1 in boxes:
            for q in index_cards(image[y0:y1, x0:x1], scale=min(1.0, INDEX_PAIRS_SIDE / max(h, w))):
                if self._named(self._read_quad(image, (q + (x0, y0)).astype(np.float32), both=True)):
                    sizes.append(short_side(q))
                    if len(sizes) == SIZE_CARDS:
                        return sizes
        return sizes

    @staticmethod
    def _named(read: CardRead) -> bool:
        """The read names a face-up card."""
        return read.code is not None and not read.face_down

    def _read_index_cards(self, image: np.ndarray, reads: list[CardRead], det: Detection) -> list[CardRead]:
        """Cards found by their two indices (``index_pairs``) in paper that no card read so far explains (a card
        on white paper, on a light cloth, among clutter: its outline lost in what it lies on), each named only
        when both its corners read the same card (as outlines found from edges alone are). A card named so
        replaces an unread "card" round its centre (the detector's outline that did not read: part of it, or
        more)."""
        named = {r.code for r in reads if r.code is not None}
        for x0, y0, x1, y1 in _unexplained_paper(det, [r.quad for r in reads if r.code is not None], image.shape):
            crop = image[y0:y1, x0:x1]
            found = index_cards(crop, skip=[r.quad - (x0, y0) for r in reads if r.code is not None],
                                scale=min(1.0, INDEX_PAIRS_SIDE / max(image.shape[:2])))
            for quad in found:
                read = self._read_quad(image, (quad + (x0, y0)).astype(np.float32), both=True)
                if read.code is None or read.face_down or read.code in named:  # (spelled out: mypy narrows code)
                    continue
                reads = [r for r in reads if r.code is not None or not _inside(read.centre, r.quad)] + [read]
                named.add(read.code)
        return reads

    def _read_loose(self, image: np.ndarray, reads: list[CardRead], det: Detection, from_corners: set[int]
                    ) -> list[CardRead]:
        """Lone indices in the paper no card read explains and no hand took in (``_loose_paper``: a card the
        picture's edge cuts, one half under something, whose outline ran into what it lies on) and in the regions
        edges enclose that no card read or hand takes in (``Detection.edge_hands``: a hand on a white cloth),
        searched like hands (``_read_indices``), named at ``LOOSE_MIN`` or more. ``from_corners``: ids of the
        reads named from a corner, whose outlines are extrapolated (a card the picture's top cuts, read from its
        index, reaches over its neighbour's)."""
        if det.size_from not in LOOSE_SIZES:
            return reads
        whole = [r for r in reads if r.code is not None and id(r) not in from_corners]
        named = [r for r in whole if not r.face_down]
        # And the regions edges enclose that no card read or hand takes in (a hand on a table as light as its
        # cards). A hand of backs in a glare spot is as pale as paper, and its pattern makes countless frames:
        # at most LOOSE_FRAMES are read in each region.
        loose = _loose_paper(det, [r.quad for r in whole]) + _loose_edge_hands(det, named, det.hands)
        if not loose:
            return reads
        corners = [r for r in reads if r.code is not None and id(r) in from_corners]
        codes = {r.code for r in reads if r.code is not None}
        best: dict[str, CardRead] = {}
        for r in self._read_indices(image, loose, det.card_width, whole, corners, LOOSE_FRAMES):
            if r.code is not None and r.code not in codes and r.confidence >= LOOSE_MIN and (
                    r.code not in best or r.confidence > best[r.code].confidence):
                best[r.code] = r
        return reads + list(best.values())

    def _rejoin(self, image: np.ndarray, reads: list[CardRead]) -> list[CardRead]:
        """Unnamed quads side by side that make one card-shaped rectangle, two of them or four in a square (the
        detector cut one card in two or in four, taking the card size from something smaller): read the
        rectangle whole; a court card's pieces look like backs (its picture is neither paper nor mat), the whole
        card reads."""
        out = list(reads)
        open_ = [r for r in reads if r.code is None or r.face_down]
        groups = [[a, b] for i, a in enumerate(open_) for b in open_[i + 1:]]
        fours: set[frozenset[int]] = set()
        for a in open_:  # a card cut in four: each piece with its three nearest (each such four tried once)
            near = sorted((r for r in open_ if r is not a), key=lambda r: float(np.linalg.norm(r.centre - a.centre)))
            if len(near) >= 3 and (four := frozenset(id(r) for r in [a] + near[:3])) not in fours:
                fours.add(four)
                groups.append([a] + near[:3])
        for group in groups:
            if any(g not in out for g in group):
                continue
            pts = np.concatenate([g.quad for g in group]).astype(np.float32)
            rect = cv2.minAreaRect(pts)
            (rw, rh) = rect[1]
            area = sum(cv2.contourArea(g.quad.astype(np.float32)) for g in group)
            if min(rw, rh) < 1 or not card_shaped(max(rw, rh) / min(rw, rh)) or area < 0.9 * rw * rh:
                continue
            quad = order_clockwise(cv2.boxPoints(rect))
            whole = self._read_quad(image, quad, both=True)
            if whole.code is None or whole.face_down:
                whole = self._read_quad(image, quad, both=True, faint=True)
            if whole.code is not None and not whole.face_down:
                out = [r for r in out if not any(r is g for g in group)] + [whole]
        return out

    def _read_quad(self, image: np.ndarray, quad: np.ndarray, both: bool = False, faint: bool = False,
                   judges: list[CornerRead] | None = None) -> CardRead:
        """Read a whole card's outline: its best corner and the opposite one. With one corner read, the card
        is named only when it clears the threshold by the margin a guessed corner needs (an outline spanning
        parts of two cards reads one corner of each); with ``both``, only when both corners read (an outline
        found from edges alone may be part of a hand). ``faint``: the ink threshold lowered (``FAINT``).
        ``judges``: on a second try at a card's outline, the plain glyph reads of the outline as found, which
        may deny the suit of what this try names (``SUIT_DENY``)."""
        q = quad.astype(np.float64)
        f = FAINT if faint else 1.0
        best = None
        tried: dict[int, CornerRead | None] = {}
        for start in range(4):  # each corner as the printed top-left; opposite corners pair up
            o, xa, ya, landscape = corner_frame(q, start)
            if landscape:  # not an index corner
                continue
            r = tried[start] = self.read_corner(image, o, xa, ya, faint=f)
            if r is not None:
                best = (r, start) if best is None or r.card_scores().max() > best[0].card_scores().max() else best
        reads = []
        start = 0
        if best is not None:
            start = best[1]
            reads.append(best[0])
            opp = (start + 2) % 4  # the opposite corner, rotated 180 degrees, should agree
            if opp in tried:  # a portrait card's two index corners were both read above
                r2 = tried[opp]
            else:
                o, xa, ya, _ = corner_frame(q, opp)
                r2 = self.read_corner(image, o, xa, ya, faint=f)
            if r2 is not None:
                reads.append(r2)
        code, conf, alts = self.decide(reads)
        if len(reads) < 2 and (both or conf < self.threshold + GUESSED_MARGIN):
            code = None
        # Whose suit the glyphs may deny (SUIT_DENY): this outline's reads; on a second try (fainter ink, an
        # outline scaled) the plain reads of the outline as found (fainter ink blurs a small club's lobes into a
        # spade's top: a card the plain glyphs call club is not named a spade on a second try).
        # (The plain reads are taken only when something is named: most outlines tried again name nothing.)
        second_try = faint or judges is not None
        given = judges

        def denied(named_code: str) -> bool:
            nonlocal given
            if given is None:
                given = self._plain_reads(image, q) if faint else reads
            return _suit_denied(given, named_code)

        if code is not None and second_try and denied(code):
            code = None
        if code is None and self.corner_net is not None:
            # The index the glyph reader could not take apart (soft, 8-11 px tall), read whole at both corners.
            named = self._corner_net_read(image, q)
            if named is not None and not denied(named[0]):
                code, conf, start = named
                return CardRead(code, conf, np.roll(q, -start, axis=0).astype(np.float32), "tl", False)
        elif code is not None and len(reads) == 2 and self.corner_net is not None and (
                conf < NET_CHECK or min(float(r.rank_p.max()) for r in reads) < NET_CHECK_RANK):
            # Named from its glyphs, not surely: the whole-corner classifier, sure of another card at both
            # corners, names it instead (a rank in thin italic strokes whose pale side was lost: a queen read 2).
            named = self._corner_net_read(image, q, pooled=False)
            if named is not None and named[0] != code and not denied(named[0]):
                code, conf, start = named
                return CardRead(code, conf, np.roll(q, -start, axis=0).astype(np.float32), "tl", False)
        ordered = np.roll(q, -start, axis=0).astype(np.float32)
        if code is None and not any(_names_a_rank(r) for r in reads) and _looks_like_back(image, ordered):
            return CardRead(BACK, 0.6, ordered, "none", True)
        return CardRead(code, conf, ordered, "tl" if reads else "none", False,
                        index_box=reads[0].box if reads else None, alternatives=alts)

    def _read_pips(self, image: np.ndarray, read: CardRead) -> CardRead | None:
        """A whole card whose index did not read (a soft or ghosted corner), named by its pips: as many as its rank
        in a number card's layout (``pips.count_pips``), each of them read as the same suit by the suit
        classifier (PIP_SUIT on average); else None."""
        p = count_pips(image, read.quad)
        if p is None:
            return None
        suit, belief = self._pip_suit(p)
        if belief < PIP_SUIT or (p.redness >= PIP_RED) != (suit in "dh"):  # the ink's colour must fit the suit
            return None
        return CardRead(RANKS[p.count - 2] + suit, PIP_TRUST * belief, read.quad, "none", False)

    def _pip_suit(self, p: PipCount) -> tuple[str, float]:
        """The suit the pips' shapes say, and its mean probability over the pips: their whole ink's, or their
        cores' where those say a suit more surely (a ghost image round each pip)."""
        sk = self.suit_model.classes
        best = ("", 0.0)
        # (A pip on the card's middle line, a five's or a nine's, is left out where others are: which way up it is
        # printed does not follow from where it lies.)
        keep = [k for k, (_, y) in enumerate(p.centres) if abs(y - 0.5) > PIP_MIDDLE] or list(range(p.count))
        for crops in [[p.crops[k] for k in keep]] + [[c[k] for k in keep] for c in p.cores]:
            if not crops or any(c.max() <= 0 for c in crops):
                continue
            boxes = [glyph_box(c) for c in crops]
            feats = np.stack([glyph_features(c, b) for c, b in zip(crops, boxes)])
            probs = self.suit_model.predict_proba_from(feats, np.stack(boxes))
            mean = {s: float(probs[:, sk.index(s)].mean()) for s in SUITS}
            suit = max(mean, key=lambda s: mean[s])
            if mean[suit] > best[1]:
                best = (suit, mean[suit])
        return best

    def _plain_reads(self, image: np.ndarray, q: np.ndarray) -> list[CornerRead]:
        """The glyph reads, at the usual ink threshold, of a whole card's index corners (outline ``q``)."""
        frames = [corner_frame(q, k) for k in range(4)]
        return [r for r in (self.read_corner(image, o, xa, ya) for o, xa, ya, landscape in frames if not landscape)
                if r is not None]

    def _read_truncated(self, image: np.ndarray, quad: np.ndarray, card_w: float | None) -> CardRead | None:
        """An edge outline that did not read, taken for the visible part of a card partly covered (by a book, a
        box, a phone): where that part is wider than tall, the card's index corners lie at the two ends of its
        long side, the corners ``corner_frame`` calls landscape and ``_read_quad`` passes over. Each is read as a
        guessed corner (warily; the card extrapolated from it at its full height); the most confident read, or
        None. ``card_w``: the card size where it is sure (None where not): then only an outline whose long side
        is about a card wide (``TRUNCATED_LONG``) is read. Frames left unnamed here are not kept for
        ``_read_unnamed`` (a guess about a guess)."""
        q = quad.astype(np.float64)
        if card_w and not TRUNCATED_LONG[0] <= max(np.linalg.norm(q[1] - q[0]), np.linalg.norm(q[2] - q[1])) \
                / card_w <= TRUNCATED_LONG[1]:
            return None
        kept = list(self._unnamed)
        best: CardRead | None = None
        for k in range(4):
            o, xa, ya, landscape = corner_frame(q, k)
            if landscape:
                read, _ = self._read_guessed(image, o, xa, ya, 0.0, card_at=o)
                if read is not None and (best is None or read.confidence > best.confidence):
                    best = read
        self._unnamed = kept
        return best

    def _truncated_kept(self, reads: list[CardRead], truncated: list[tuple[np.ndarray, CardRead]]
                        ) -> list[CardRead]:
        """The reads of partly covered cards (``_read_truncated``; each with the outline it was read from) that
        nothing else explains: a card not named already, whose outline holds no card named (nor its index), and
        whose extrapolated card lies on none. (The visible part of a hand's top card, wider than tall, reads as
        a covered card whose extrapolated rest would hide the cards beside it.)"""
        out: list[CardRead] = []
        for quad, t in truncated:
            named = [r for r in reads + out if self._named(r)]
            if t.code in {r.code for r in named} or any(
                    _inside(r.centre, quad) or _inside(t.centre, r.quad)
                    or (r.index_box is not None and _inside(r.index_box.mean(axis=0), quad)) for r in named):
                continue
            out.append(t)
        return out

    def _face_up_back(self, image: np.ndarray, quad: np.ndarray, have: AbstractSet[str | None]) -> CardRead | None:
        """A card-shaped region taken for a back read as a whole card (``_read_quad``), where the whole-corner
        classifier names a card at one of its index corners at ``BACK_FACE_NET`` or more (on a back it names none:
        the glyph reader is not asked of every back's pattern), and it names a card not in ``have``; else None."""
        assert self.corner_net is not None
        inputs = index_corner_inputs(image, quad)[1]
        if not len(inputs) or not any(c is not None and p >= BACK_FACE_NET for c, p in self.corner_net.name(inputs)):
            return None
        face = self._read_quad(image, quad)
        return face if self._named(face) and face.code not in have else None

    def _corner_net_read(self, image: np.ndarray, q: np.ndarray, pooled: bool = True
                         ) -> tuple[str, float, int] | None:
        """A whole card (outline ``q``) named by the whole-corner classifier (``reader_corner``): (code,
        confidence, the corner taken as its top-left), or None. Its two index corners are read from the outline
        at each of ``NET_SCALES`` (an outline a pixel or two off moves a small index in its frame): as found,
        then the smaller ones in one batch. Named where at some scale both corners name the same card at
        ``CORNER_NET_MIN`` or more, or where both corners at every scale name the same card, their confidences'
        geometric mean at ``NET_POOLED_MIN`` or more (a soft index the classifier names alike, never surely; not
        with ``pooled`` False)."""
        assert self.corner_net is not None
        starts = [k for k in range(4) if not corner_frame(q, k)[3]]
        if len(starts) != 2:
            return None
        c = q.mean(axis=0)
        net = self.corner_net
        said: list[tuple[str | None, float]] = []
        for scales in (NET_SCALES[:1], NET_SCALES[1:]):  # as found is usually enough
            if not scales:
                continue
            # (Taken in about its middle, an outline keeps the same index corners.)
            now = net.name(np.concatenate([index_corner_inputs(image, f * (q - c) + c)[1] for f in scales]))
            for (code, a), (other, b) in zip(now[::2], now[1::2]):
                if code is not None and other == code and min(a, b) >= CORNER_NET_MIN:
                    return code, float(np.sqrt(a * b)), starts[0]
            said += now
        code = said[0][0]
        if pooled and code is not None and all(n == code for n, _ in said):
            mean = _geometric_mean([p for _, p in said])
            if mean >= NET_POOLED_MIN:
                return code, mean, starts[0]
        return None

    def _read_scaled(self, image: np.ndarray, read: CardRead) -> CardRead | None:
        """An unread whole card read again from its outline a little smaller, then a little bigger
        (``QUAD_JITTER``), plain ink and then faint: at low resolution (an index 10 px tall) a pixel or two of
        the outline decides whether the glyphs come apart. Named only when both corners read and agree by the
        guessed-corner margin (frames moved off the outline found are a guess); None when none is."""
        judges = self._plain_reads(image, read.quad.astype(np.float64))
        for f in QUAD_JITTER:
            q = (f * (read.quad - read.centre) + read.centre).astype(np.float32)
            for faint in (False, True):
                again = self._read_quad(image, q, both=True, faint=faint, judges=judges)
                if again.code is not None and not again.face_down and \
                        again.confidence >= self.threshold + GUESSED_MARGIN:
                    return again
        return None

    def _read_corners(self, image: np.ndarray, corners: list[CornerCandidate], card_w: float
                      ) -> tuple[list[CardRead], list[CornerCandidate]]:
        """The outline corners read (``_read_retried``; more frames around each where cards are under
        ``LO_CW`` pixels wide), and those that found ink but did not read."""
        out: list[CardRead] = []
        far: list[CornerCandidate] = []
        for c in corners:
            read, located = self._read_retried(image, c.origin, c.x_axis, c.y_axis, OUTSET,
                                               JITTER_LO if card_w < LO_CW else JITTER)
            if read is not None:
                out.append(read)
            elif located == GLYPH_ROW:
                far.append(c)
        return out, far

    def _read_far(self, image: np.ndarray, corners: list[CornerCandidate], reads: list[CardRead], card_w: float,
                  hands: Sequence[np.ndarray] = ()) -> list[CardRead]:
        """Outline corners that found ink but did not read, tried further out (``FAR_JITTER``): only those that
        lie in no card named so far, nor at its corner (a named card's own corners, and its pips, are no other
        card's index). One that still does not read but found ink is tried turned onto its hand's longest other
        straight edge (``hands``; ``_turns``), once per place. One at a named card's corner that has no index
        (``quad`` corners 1 and 3) is tried turned a right angle off that card (``TOUCHING_TURNS``): the corner
        of the next card in a row laid side by side, which the outline does not show."""
        named = [r for r in reads if r.code is not None and not r.face_down]
        out: list[CardRead] = []
        turned: list[np.ndarray] = []  # places tried turned already (an outline may give one corner twice)
        need = self.threshold + GUESSED_MARGIN + FAR_MARGIN

        def fresh(origin: np.ndarray) -> bool:
            return not any(np.linalg.norm(origin - t) < 0.05 * card_w for t in turned)

        for c in corners:
            at = (float(c.origin[0]), float(c.origin[1]))
            claims = [r for r in named + out
                      if cv2.pointPolygonTest(r.quad.reshape(-1, 1, 2).astype(np.float32), at, True) > -0.05 * card_w
                      or float(np.min(np.linalg.norm(r.quad - c.origin, axis=1))) < FAR_CORNER * card_w]
            if claims:
                frames = _touching_frames(c, claims[0].quad, card_w) if len(claims) == 1 and fresh(c.origin) else None
                if frames is not None:
                    turned.append(c.origin)
                for xa, ya in frames or ():
                    read, _ = self._read_retried(image, c.origin, xa, ya, OUTSET, TURN_JITTER)
                    if read is not None and read.confidence >= need:
                        out.append(read)
                        break
                continue
            read, located = self._read_retried(image, c.origin, c.x_axis, c.y_axis, OUTSET, FAR_JITTER)
            # Turned, where it still found a glyph row or ink at its border, once per place.
            if read is None and located and fresh(c.origin):
                turned.append(c.origin)
                for turn in _turns(c, hands, card_w):
                    read, _ = self._read_retried(image, c.origin, _rotated(c.x_axis, turn),
                                                 _rotated(c.y_axis, turn), OUTSET, TURN_JITTER)
                    if read is not None:
                        break
            if read is not None and read.confidence >= need:
                out.append(read)
        return self._dedupe(out, reads, card_w)

    def _read_outline_scan(self, image: np.ndarray, hands: list[np.ndarray], reads: list[CardRead], card_w: float,
                           from_corners: set[int], unread: Sequence[np.ndarray] = ()) -> list[CardRead]:
        """The last look at a hand one card or none of which read (a hand is two cards or more; one none of whose
        cards read only where its outline has a straight stretch ``SCAN_BARE_EDGE`` card widths long: otherwise
        it is mostly something else, glare joined to chips), and at a card-shaped blob that read as no
        card and holds none read (``unread``: a tight fan of two, one nearly on the other, taken for one card;
        the caller drops it where the scan names a card in it), and (``scan_crowded``) at a hand more of whose
        cards read, there only at the corners whose index lies on paper no card read covers (``CROWDED_CHECK``):
        the whole-corner classifier at every convex turn of its outline (``index_search.outline_frames``), away
        from the corners of cards read. A card is
        named at ``SCAN_NET_MIN`` or more, where the card drawn from that corner lies ``ON_HAND`` on the hand and
        no card read already has its name, nor a card read whole (not from a corner: ``from_corners``, ids) holds
        its index (a lone card's corners are its own: a blurred six the glyphs named Qc read 6c there); the surest
        frame of each card is kept. A card said at ``REFINE_LOOK`` to ``SCAN_NET_MIN`` where it could lie so
        (``scan_refine``) is read again about that frame (``_refined``): named where one frame there says it
        surely and ``REFINE_AGREE`` say it (the scan's frame a few hundredths of a card off a small card's corner;
        tuning scenes +8, none wrong)."""
        assert self.corner_net is not None
        named = [r for r in reads if self._named(r)]
        have = {r.code for r in named}
        corners = _corners_of(named)
        whole = [r.quad for r in named if id(r) not in from_corners]
        out: list[CardRead] = []
        for k, hand in enumerate(list(hands) + list(unread)):
            is_hand = k < len(hands)
            held = len(_held(hand, named, card_w))
            crowded = held > (1 if is_hand else 0)
            if crowded and not (is_hand and self.scan_crowded):
                continue
            if is_hand and held == 0 and _longest_edge(hand) < SCAN_BARE_EDGE * card_w:
                continue  # no card's straight edge: glare joined to chips
            passed: list[tuple[np.ndarray, list[tuple[np.ndarray, np.ndarray, np.ndarray]]]] = []
            frames, checked = self._scan_screened(outline_frames(hand, card_w, corners, passed=passed), hand, named,
                                                  card_w, from_corners, crowded)
            if not frames:
                continue
            said = self.corner_net.name(np.stack([frame_input(image, o, xa, ya) for o, xa, ya in frames]))
            # Only the sharpest of the turns side by side was asked (``index_search.SCAN_APART``); where a frame
            # half names a card not read yet, the turns passed over beside it are asked too (SCAN_NEAR): the
            # surest frame of a small card may stand a step or two off the sharpest turn.
            near = np.array([o for (o, _, _), (code, conf) in zip(frames, said)
                             if code is not None and code not in have and SCAN_NEAR_LOOK <= conf < SCAN_NET_MIN])
            if len(near) and passed:
                more, more_checked = self._scan_screened(
                    [f for p, fs in passed if np.linalg.norm(near - p, axis=1).min() <= SCAN_NEAR * card_w
                     for f in fs], hand, named, card_w, from_corners, crowded)
                if more:
                    frames, checked = frames + more, checked + more_checked
                    said += self.corner_net.name(np.stack([frame_input(image, o, xa, ya) for o, xa, ya in more]))
            best: dict[str, CardRead] = {}
            looked: list[tuple[_Unnamed, tuple[str | None, float]]] = []  # half believed, for _refined
            for (o, xa, ya), (code, conf), check in zip(frames, said, checked):
                low = conf < SCAN_NET_MIN
                if code is None or code in have or (code in best and best[code].confidence >= conf) or (
                        low and not (self.scan_refine and conf >= REFINE_LOOK)):
                    continue
                quad = _card_at(o, xa, ya)
                index = o + SCAN_INDEX[0] * xa + SCAN_INDEX[1] * ya
                if _share_on(quad, hand, card_w) >= ON_HAND and not any(_inside(index, q) for q in whole):
                    if check:
                        if not low and self._glyphs_agree(image, o, xa, ya, code):
                            best[code] = CardRead(code, conf, quad, "tl", False)
                    elif low:
                        looked.append((_Unnamed(o, xa, ya, quad, False), (code, conf)))
                    else:
                        best[code] = CardRead(code, conf, quad, "tl", False)
            if looked:
                for code, r in self._refined(image, looked, {c for c in have if c is not None} | set(best),
                                             pooled=False).items():
                    best[code] = r
                best.update(self._glyphs_named(image, looked, have | set(best)))
            out += best.values()
            have |= set(best)
        return out

    def _scan_screened(self, frames: list[tuple[np.ndarray, np.ndarray, np.ndarray]], hand: np.ndarray,
                       named: list[CardRead], card_w: float, from_corners: set[int], crowded: bool
                       ) -> tuple[list[tuple[np.ndarray, np.ndarray, np.ndarray]], list[bool]]:
        """The outline scan's frames of ``hand`` worth asking, and for each whether it is named only where the
        glyphs there agree (CROWDED_UNDER): all of them in a hand with one card read or none (``crowded``
        False); in a hand of two cards read or more, only a corner whose index lies on paper no card read covers
        (the lower card of three, its corner sticking out past the others')."""
        checked = [False] * len(frames)
        if not (crowded and frames):
            return frames, checked
        o, xa, ya = (np.array([f[i] for f in frames]) for i in range(3))
        spots = np.concatenate([o + t[0] * xa + t[1] * ya for t in CROWDED_CHECK])
        covered = np.zeros(len(spots), bool)
        by_whole = np.zeros(len(spots), bool)  # ...covered by a card read whole (not from a corner)
        for r in named:
            inside = _in_quad(spots, r.quad)
            covered |= inside
            if id(r) not in from_corners:
                by_whole |= inside
        hidden: np.ndarray = np.any(covered.reshape(len(CROWDED_CHECK), -1), axis=0)
        # A card named from its corner has its whole outline drawn from there, over the cards laid on it too: a
        # frame covered by such outlines alone may be the index of a card above that one, named only where the
        # glyphs there say the same card (CROWDED_UNDER, ``_glyphs_agree``). (Its corner, CROWDED_CHECK's second
        # spot, on no card read, and only in a hand the cards read leave UNDER_UNCOVERED of a card's area
        # uncovered: 1.13-1.44 the time of a whole-table still where every such frame was looked at; with the
        # corner's test alone, 1.06 per still, for +3 cards.)
        corner_free = ~covered.reshape(len(CROWDED_CHECK), -1)[1]
        under = ~np.any(by_whole.reshape(len(CROWDED_CHECK), -1), axis=0) & hidden & corner_free
        if not (CROWDED_UNDER and under.any()
                and _uncovered(hand, [r.quad for r in named], card_w) >= UNDER_UNCOVERED):
            under[:] = False  # (the hand's uncovered area measured only where such a frame is)
        keep = [i for i in range(len(frames)) if not hidden[i] or under[i]]
        return [frames[i] for i in keep], [bool(under[i]) for i in keep]

    def _read_located(self, image: np.ndarray, hands: list[np.ndarray], reads: list[CardRead], card_w: float,
                      from_corners: set[int], unread: Sequence[np.ndarray] = ()) -> list[CardRead]:
        """The last look at a hand that may still lack a card (``_lacks_a_card``), and at a card-shaped blob that
        read as no card and holds none read (``unread``, as the outline scan's): the corner frames the index
        locator marks there (``reader_locator``, ``LOCATE_MIN`` or more), asked of the whole-corner classifier in one
        batch. A frame is asked only where its index lies in no card read whole (``from_corners``: ids of reads that
        were not) nor at an index read, not at a named card's corner (``_at_named``: ``LOCATE_SEEN``), and its card
        lies ``ON_HAND`` on the hand. A card is named as the outline scan names one: at ``SCAN_NET_MIN`` or more, not
        named yet; said at ``LOCATE_LOOK`` to ``SCAN_NET_MIN``, read again about that frame (``_refined``, its
        pooled rule where ``LOCATE_POOLED``). The locator finds the frames geometry misses: a tight fan's rim
        indices that notch the outline, a hand whose outline runs round a glare streak."""
        assert self.locator is not None and self.corner_net is not None
        named = [r for r in reads if self._named(r)]
        have = {r.code for r in named}
        whole = [r.quad for r in named if id(r) not in from_corners]
        boxes = [r.index_box.mean(axis=0) for r in named if r.index_box is not None]
        outlines = _outlines_of(named)
        out: list[CardRead] = []
        for k, hand in enumerate(list(hands) + list(unread)):
            if k < len(hands):
                if not _held(hand, named, card_w) and _longest_edge(hand) < SCAN_BARE_EDGE * card_w:
                    continue  # no card read and no card's straight edge: glare joined to chips
                if not _lacks_a_card(hand, named + out, card_w):
                    continue
            elif _held(hand, named, card_w):
                continue
            shut = whole
            if LOCATE_IN_LONE and k < len(hands):
                lone = [r for r in _held(hand, named, card_w) if id(r) not in from_corners]
                if len(lone) == 1 and len(_held(hand, named + out, card_w)) == 1:
                    shut = [q for q in whole if q is not lone[0].quad]
            frames: list[tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]] = []
            for f in self.locator.locate(image, hand, card_w, LOCATE_MIN, LOCATE_MOST):
                if _at_named(f, shut, outlines, card_w) or any(
                        np.linalg.norm(_index_at(f) - b) < 0.15 * card_w for b in boxes):
                    continue
                quad = _card_at(f.origin, f.x_axis, f.y_axis)
                if _share_on(quad, hand, card_w) >= ON_HAND:
                    frames.append((f.origin - OUTSET * (f.x_axis + f.y_axis), f.x_axis, f.y_axis, quad))
            if not frames:
                continue
            best = self._name_located(image, frames, have, SCAN_NET_MIN, LOCATE_LOOK,
                                      {r.code: r.centre for r in named if r.code is not None})
            out += best.values()
            have |= set(best)
        return out

    def _name_located(self, image: np.ndarray, frames: list[tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]],
                      have: set[str | None], sure: float, look: float,
                      centres: dict[str, np.ndarray] | None = None) -> dict[str, CardRead]:
        """The locator's corner frames (origin, axes, the card's quad) asked of the whole-corner classifier in one
        batch: each card not in ``have`` named where a frame says it at ``sure`` or more, or, said at ``look`` to
        ``sure``, read again about that frame (``_refined``, pooled as ``LOCATE_POOLED``), and where that leaves it
        unnamed, named where the glyph reader there names it too (``LOCATE_GLYPHS``); the surest frame a card.
        ``centres``: the cards read already, by name, where each lies (``LOCATE_BESIDE``; None: not looked beside)."""
        assert self.corner_net is not None
        said = self.corner_net.name(np.stack([frame_input(image, o, xa, ya) for o, xa, ya, _ in frames]))
        if LOCATE_BESIDE and centres:
            # A peak between two indices side by side (the middle card of a tight fan beside the top card's
            # index) may sit nearer the named card's index than its own corner: where a frame names a card read
            # already, the frame a little along its x axis away from that card's centre is asked too. (Not
            # towards it, nor either way: a frame shifted onto the named card's own index cuts its rank, a six
            # read as a five, an eight as a three.)
            beside = []
            for (o, xa, ya, q), (code, _) in zip(frames, said):
                if code is not None and code in centres:
                    d = -LOCATE_BESIDE if float(np.dot(centres[code] - o, xa)) > 0 else LOCATE_BESIDE
                    beside.append((o + d * xa, xa, ya, q + d * xa))
            if beside:
                frames = list(frames) + beside
                said += self.corner_net.name(np.stack([frame_input(image, o, xa, ya) for o, xa, ya, _ in beside]))
        best: dict[str, CardRead] = {}
        looked: list[tuple[_Unnamed, tuple[str | None, float]]] = []
        for (o, xa, ya, quad), (code, conf) in zip(frames, said):
            if code is None or code in have or (code in best and best[code].confidence >= conf):
                continue
            if conf >= sure:
                best[code] = _Unnamed(o, xa, ya, quad, False).named(code, conf)
            elif conf >= look:
                looked.append((_Unnamed(o, xa, ya, quad, False), (code, conf)))
        if looked:
            for code, r in self._refined(image, looked, {c for c in have if c is not None} | set(best),
                                         pooled=LOCATE_POOLED, look=look).items():
                best[code] = r
            best.update(self._glyphs_named(image, looked, have | set(best)))
        return best

    def _glyphs_named(self, image: np.ndarray, looked: list[tuple[_Unnamed, tuple[str | None, float]]],
                      have: AbstractSet[str | None]) -> dict[str, CardRead]:
        """Of the frames the classifier half believes (``looked``), surest first, each card not in ``have`` named
        where the glyph reader at that frame names it too at ``LOCATE_GLYPHS`` or more, and no other card
        (``_glyphs_say``, turned as ``_refined`` turns; 0: none)."""
        out: dict[str, CardRead] = {}
        if not LOCATE_GLYPHS:
            return out
        for f, (code, conf) in sorted(looked, key=lambda fc: -fc[1][1]):
            if code is None or code in have or code in out:
                continue
            p = self._glyphs_say(image, f.origin, f.x_axis, f.y_axis, code, REFINE_TURNS)
            if p >= LOCATE_GLYPHS:
                out[code] = f.named(code, max(conf, p))
        return out

    def _read_everywhere(self, image: np.ndarray, reads: list[CardRead], det: Detection) -> list[CardRead]:
        """The index locator over the paper no named card covers (``_paper_boxes``, each box in tiles the locator
        can take, ``_tiles``): each peak at ``EVERYWHERE_MIN`` or more whose index lies on no card named and whose
        origin is not at a named card's corner (``_at_named``: ``LOCATE_SEEN``), asked of the whole-corner
        classifier in one batch; a card not named yet is named at ``EVERYWHERE_NET`` or more, and from
        ``EVERYWHERE_LOOK`` read again about its frame (``_refined``)."""
        assert self.locator is not None and self.corner_net is not None
        card_w = det.card_width
        if card_w <= 0:
            return []
        named = [r for r in reads if self._named(r)]
        have = {r.code for r in named}
        quads = [r.quad for r in named]
        outlines = _outlines_of(named)
        frames: list[tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]] = []
        seen: list[np.ndarray] = []
        # From the working picture where a card is wide enough there (a cheap resize), else from the still, shrunk
        # by halves first (an area average over a 12 MP still's tiles costs tens of ms).
        s = det.scale if det.work is not None and card_w / det.scale >= EVERYWHERE_WORK * LOC_CW else 1.0
        src = det.work if s != 1.0 else image
        assert src is not None
        located: list[Located] = []
        for x0, y0, x1, y1 in _paper_boxes(det, [r.quad for r in reads if r.code is not None], image.shape):
            for tile in _tiles((y1 - y0, x1 - x0), card_w):
                located += self.locator.locate(src, (tile + [x0, y0]) / s, card_w / s, EVERYWHERE_MIN,
                                               EVERYWHERE_MOST, fast=s == 1.0)
        for f in located:
            f.origin, f.x_axis, f.y_axis = (f.origin + 0.5) * s - 0.5, f.x_axis * s, f.y_axis * s
            if _at_named(f, quads, outlines, card_w):
                continue
            if any(np.linalg.norm(f.origin - o) < FAR_CORNER * card_w for o in seen):
                continue  # the same corner marked again where two tiles overlap
            seen.append(f.origin)
            frames.append((f.origin - OUTSET * (f.x_axis + f.y_axis), f.x_axis, f.y_axis,
                           _card_at(f.origin, f.x_axis, f.y_axis)))
        if not frames:
            return []
        return list(self._name_located(image, frames, have, EVERYWHERE_NET, EVERYWHERE_LOOK).values())

    def _glyphs_agree(self, image: np.ndarray, origin: np.ndarray, x_axis: np.ndarray, y_axis: np.ndarray,
                      code: str) -> bool:
        """The glyph reader names ``code`` at ``UNDER_AGREE`` or more at the frame or a little further out
        (``SCAN_OUTSETS``), and another card at neither."""
        return self._glyphs_say(image, origin, x_axis, y_axis, code) >= UNDER_AGREE

    def _glyphs_say(self, image: np.ndarray, origin: np.ndarray, x_axis: np.ndarray, y_axis: np.ndarray,
                    code: str, turns: Sequence[float] = (0.0,)) -> float:
        """How surely the glyph reader names ``code`` at the frame or a little further out (``SCAN_OUTSETS``), each
        turned by ``turns`` (degrees), the surest; 0 where it names another card at any."""
        said = []
        for turn in turns:
            xa, ya = (x_axis, y_axis) if not turn else (_rotated(x_axis, turn), _rotated(y_axis, turn))
            for outset in SCAN_OUTSETS:
                read = self.read_corner(image, origin, xa, ya, outset, guessed=True)
                if read is not None:
                    said.append(self.decide([read], guessed=True)[:2])
        if any(c is not None and c != code for c, _ in said):
            return 0.0
        return max((float(p) for c, p in said if c == code), default=0.0)

    def _read_retried(self, image: np.ndarray, origin: np.ndarray, x_axis: np.ndarray, y_axis: np.ndarray,
                      outset: float, jitter: tuple[tuple[float, float], ...] = JITTER) -> tuple[CardRead | None, int]:
        """A guessed corner read warily (``_read_guessed``), and where it does not read, tried again a little
        further out (``jitter``); the card is extrapolated from ``origin`` either way. Also whether the last
        frame tried found ink (``_corner``)."""
        located = 0
        for dx, dy in jitter:
            read, located = self._read_guessed(image, origin + dx * x_axis + dy * y_axis, x_axis, y_axis, outset,
                                               card_at=origin)
            if read is not None or not located:
                # Not located: no glyph row and no ink cut at the left border, so a frame a few pixels further
                # out finds none either. (Reads on 240 tuning scenes were identical without those retries; a
                # retry after finding no glyph row at all did read a card, once: a queen its frame cut.)
                return read, located
        return None, located

    def _read_indices(self, image: np.ndarray, hands: list[np.ndarray], card_w: float, whole_reads: list[CardRead],
                      corner_reads: list[CardRead], most: int | None = None, bare: list[np.ndarray] | None = None,
                      deep_only: bool = False) -> list[CardRead]:
        """Cards of the hands read from rank-over-suit glyph pairs that no read so far explains: not inside a
        card read whole (its pips), not at an index already read. Then, in a hand that may still hold an unread
        card, the deep pass (``frames_in(deep=True)``): a few frames of glyphs broken off other ink, up to one
        card (one for each card's area the cards read leave uncovered: ``DEEP_CARDS``). ``most``: at most so many
        frames read in each pass over a hand. ``bare``: the hands no card was read in by then (no deep pass) are
        added to it; ``deep_only``: the deep pass alone (a bare hand some of whose cards were named later)."""
        whole = [r.quad for r in whole_reads if r.code is not None and not r.face_down]
        boxes = [r.index_box.mean(axis=0) for r in whole_reads + corner_reads
                 if r.code is not None and r.index_box is not None]
        out: list[CardRead] = []
        codes = {r.code for r in whole_reads + corner_reads if self._named(r)}

        def read_frames(frames: list[IndexFrame], deep: bool = False, on_card: np.ndarray | None = None,
                        cards: int = 1) -> None:
            """``on_card``: the hand whose on-card pairs ``frames`` are (``frames_in(on_card=True)``). ``cards``:
            a deep pass reads up to so many new cards, ``DEEP_READS`` frames for each."""
            tried = 0
            found = 0
            for f in frames:
                if any(np.linalg.norm(f.rank_centre - b) < 0.12 * card_w for b in boxes):
                    continue
                if any(_inside(f.rank_centre, q) for q in whole):
                    continue
                if (deep and tried == DEEP_READS * cards) or tried == most:
                    break
                tried += 1
                # Deep frames are retried as a guessed corner is; plain frames are many, and retried only a
                # digit's width to the left.
                kept = len(self._unnamed)
                read = self._read_retried(image, f.origin, f.x_axis, f.y_axis, 0.0,
                                          JITTER if deep else TEN_JITTER)[0]
                if on_card is not None:
                    # Mostly pips: not left for the whole-corner classifier (_read_unnamed) to look at, and a card
                    # named only when read surely (a pair of a ten's pips, by a glare spot joined to the hand,
                    # read 4d at 0.66) and lying on the hand, as a card laid on another does (a queen's index read
                    # upside down, its diamond for a J, named Jd at 0.83 a card lying off the hand on the mat).
                    del self._unnamed[kept:]
                    if read is not None and (read.confidence < self.threshold + ON_CARD_MARGIN
                                             or _share_on(read.quad, on_card, card_w) < ON_HAND):
                        read = None
                if read is not None:
                    out.append(read)
                    if read.index_box is not None:
                        boxes.append(read.index_box.mean(axis=0))
                    # The card the hand lacked (a hand seldom lacks two); not a card read already (the deep pass
                    # also finds the glyphs of an index read from its corner, a little off its box).
                    new = read.code not in codes
                    codes.add(read.code)
                    found += new
                    if deep and found == cards:
                        break

        inks = [hand_ink(image, hand, card_w) for hand in hands]
        for ink in ([] if deep_only else inks):
            if ink is not None:
                plain = frames_in(ink, card_w)
                read_frames(plain)
                if ink.wider is not None:  # and the frames only the hull redrawn closer round the cards takes in
                    read_frames([f for f in frames_in(ink.wider, card_w) if not ink.takes_in(f.rank_centre, card_w)])
        # A hand with fewer than HAND_CARDS cards read, or that the cards read so far do not cover: glyphs ran into
        # other ink there, perhaps (the deep pass breaks them apart; it costs more, and elsewhere it only finds
        # more pips and frame lines to read). Not where no card was read at all: face-down cards, whose pattern
        # breaks into countless glyph-sized pieces.
        named = [r for r in whole_reads + corner_reads + out if r.code is not None and not r.face_down]
        for hand, ink in zip(hands, inks):
            if ink is None:
                continue
            if not _held(hand, named, card_w):
                if bare is not None:
                    bare.append(hand)
                continue
            if not _lacks_a_card(hand, named, card_w):
                continue
            before = len(out)
            # A row of cards may lack more than one (each stacked slot's lower card): up to one per card's area
            # the cards read leave uncovered (DEEP_CARDS at most).
            cards = min(DEEP_CARDS, max(1, int(np.ceil(_uncovered(hand, [r.quad for r in named], card_w)))))
            read_frames(frames_in(ink.wider or ink, card_w, deep=True), deep=True, cards=cards)
            # Then pairs whose card's corner lies on another card of the hand, not off it (a card laid on another:
            # white on white, no outline corner there), up to one card as the deep pass reads.
            if self.on_card_frames and _lacks_a_card(hand, named + out[before:], card_w):
                read_frames(frames_in(ink, card_w, on_card=True), deep=True, on_card=hand)
        return out

    def _read_slid(self, image: np.ndarray, hands: list[np.ndarray], whole: list[CardRead],
                   corner_reads: list[CardRead], card_w: float) -> list[CardRead]:
        """Cards of a fan read beside the cards named in their hand (``SLIDES``), only in a hand that may lack a
        card (``_read_indices``' deep pass test). A frame is read only where its index could show: its middle in
        the hand (or within a tenth of a card of its outline, found at low resolution), at no index read already,
        not inside another card named (beneath it, or its own picture), nor inside the card slid from where that
        card was read whole (nothing lies on it; a card named twice, from two corners, is one card). Named at the
        far frames' margin, only as a card not named yet, and only where the corner classifier names the same card
        from the frame (``SLID_SECOND``; with no corner classifier, nothing is named here)."""
        if SLID_SECOND and self.corner_net is None:
            return []
        named = [r for r in whole + corner_reads if self._named(r)]
        whole_ids = {id(r) for r in whole}
        codes = {r.code for r in named}
        boxes = [r.index_box for r in named if r.index_box is not None]
        need = self.threshold + GUESSED_MARGIN + FAR_MARGIN
        out: list[CardRead] = []

        def known() -> tuple[np.ndarray, list[CardRead], np.ndarray, np.ndarray]:
            """The index boxes (n x 4 x 2), the cards named, and their outlines' bounding boxes (a hundredth of a
            pixel wider all round: a point outside is outside the outline for ``_inside`` too)."""
            cards = named + out
            quads = np.array([c.quad for c in cards], np.float32).reshape(-1, 4, 2)
            return (np.asarray(boxes, np.float64).reshape(-1, 4, 2), cards, quads.min(axis=1) - 0.01,
                    quads.max(axis=1) + 0.01)

        for hand in hands:
            held = _held(hand, named, card_w)
            if not held or (len({r.code for r in held}) >= HAND_CARDS and _uncovered(
                    hand, [r.quad for r in named + out], card_w) < UNCOVERED):
                continue  # (a card named from both its corners is one card held)
            # Against the hull of the hand and the cards held in it: index ink near the edge and the shade a card
            # casts on the one beneath notch the low-resolution paper mask at a fan's indices, the very place a
            # slid frame looks (small cards, seed 5040: the outline ran 0.3 of a card inside the top card's
            # indexed corner, and the lower card's index beside it lay outside).
            outline = hand.reshape(-1, 2)
            if SLID_HULL:
                outline = cv2.convexHull(np.concatenate([outline] + [r.quad.reshape(-1, 2) for r in held]).astype(
                    np.float32))
            poly = outline.reshape(-1, 1, 2).astype(np.float32)

            def depth(p: np.ndarray) -> float:
                return float(cv2.pointPolygonTest(poly, (float(p[0]), float(p[1])), True))

            def shows(mids: list[np.ndarray], beside: CardRead) -> list[bool]:
                """For each of ``mids``, whether an index could show there (as the docstring says)."""
                ok = np.array([depth(m) >= -0.1 * card_w for m in mids], bool)
                at = np.array(mids, np.float64).reshape(-1, 2)
                index_boxes, cards, lo, hi = known()
                if len(index_boxes):
                    apart = np.linalg.norm(at[:, None] - index_boxes.mean(axis=1)[None], axis=2)
                    ok &= ~np.any(apart < 0.15 * card_w, axis=1)
                    if SLID_INDEX_CLEAR:
                        # Nor beside an index read, however tall it is: the frame would read part of it (a six's
                        # right half, cut by the frame's edge, read as a five).
                        for i in np.flatnonzero(ok):
                            ok[i] = not any(cv2.pointPolygonTest(index_boxes[j].astype(np.float32).reshape(-1, 1, 2), (
                                float(at[i, 0]), float(at[i, 1])), True) >= -SLID_INDEX_CLEAR * card_w
                                            for j in np.flatnonzero(apart[i] < 0.5 * card_w))
                # (Only the cards whose outline's bounding box holds the point are tested against the outline.)
                boxed = np.all((lo[None] <= at[:, None]) & (at[:, None] <= hi[None]), axis=2)
                for i in np.flatnonzero(ok):
                    ok[i] = not any((c.code != beside.code or id(c) in whole_ids) and _inside(mids[i], c.quad)
                                    for c in (cards[j] for j in np.flatnonzero(boxed[i])))
                return [bool(v) for v in ok]

            frames: list[tuple[CardRead, int, np.ndarray, np.ndarray, np.ndarray]] = []
            for r in held:
                for k in (0, 2):  # its two index corners
                    o, xa, ya, _ = corner_frame(r.quad, k)
                    ats = [o + sign * s * xa for s in SLIDES for sign in (1.0, -1.0)]
                    frames += [(r, k, at, xa, ya) for at, show in zip(
                        ats, shows([at + INDEX_AT[0] * xa + INDEX_AT[1] * ya for at in ats], r)) if show]
            if not frames:
                continue
            said: list[tuple[str | None, float]] = [(None, 0.0)] * len(frames)
            if SLID_SECOND and self.corner_net is not None:  # the second opinion first, all frames in one batch
                said = self.corner_net.name(np.stack([frame_input(image, at - OUTSET * (xa + ya), xa, ya)
                                                      for _, _, at, xa, ya in frames]))
            done: set[tuple[int, int]] = set()  # (card, corner) whose neighbour there was named
            looked: list[tuple[_Unnamed, tuple[str | None, float]]] = []  # half believed, for _refined
            for (r, k, at, xa, ya), (net_code, net_conf) in zip(frames, said):
                if (id(r), k) in done or (SLID_SECOND and (net_code is None or net_code in codes)) or \
                        not shows([at + INDEX_AT[0] * xa + INDEX_AT[1] * ya], r)[0]:
                    continue
                read, _ = self._read_retried(image, at, xa, ya, OUTSET)
                # Named at the far frames' margin; or a little under it where the classifier is nearly sure of
                # the same card (two opinions that agree).
                if read is not None and read.code is not None and read.code not in codes and (
                        read.confidence >= need or (self.slid_agree and net_conf >= SLID_AGREE_NET
                                                    and read.confidence >= self.threshold)) and (
                        not SLID_SECOND or read.code == net_code):
                    out.append(read)
                    codes.add(read.code)
                    if read.index_box is not None:
                        boxes.append(read.index_box)
                    done.add((id(r), k))
                elif self.slid_agree and net_code is not None and REFINE_LOOK <= net_conf < NET_ALONE_MIN:
                    o = at - OUTSET * (xa + ya)
                    looked.append((_Unnamed(o, xa, ya, _card_at(o, xa, ya), False), (net_code, net_conf)))
            if looked:
                # The frames the classifier half believes, read again about themselves (its sure way only).
                for code, read in self._refined(image, looked, {c for c in codes if c is not None},
                                                pooled=False).items():
                    out.append(read)
                    codes.add(code)
        return out

    def _read_guessed(self, image: np.ndarray, origin: np.ndarray, x_axis: np.ndarray, y_axis: np.ndarray,
                      outset: float, card_at: np.ndarray) -> tuple[CardRead | None, int]:
        """One guessed corner frame read warily: named only when it clears the threshold by the margin (or an
        enrolled deck seconds it). The card is extrapolated from the corner at ``card_at`` along the axes. Also
        whether a frame a little further left might read there (``_corner``)."""
        r, located = self._corner(image, origin, x_axis, y_axis, outset, guessed=True)
        quad = _card_at(card_at, x_axis, y_axis)
        at = origin - outset * (x_axis + y_axis)
        if r is None:
            # (Kept even where nothing was located: a jack's single thin stroke pales into the paper.)
            self._unnamed.append(_Unnamed(at, x_axis, y_axis, quad, False))
            return None, located
        code, conf, alts = self.decide([r], guessed=True)
        need = self.threshold + GUESSED_MARGIN
        if code is None or (r.cut and conf < need + CUT_MARGIN) or (  # nothing seconds a cut rank
                conf < need and not self._deck_agrees([r], code)
                and not self._net_agrees(image, at, x_axis, y_axis, code)):
            if code is None and not r.cut:
                self._unnamed.append(_Unnamed(at, x_axis, y_axis, quad, True))
            return None, located
        if conf < NET_VETO_UNDER and self.deck is None and self._net_denies(image, at, x_axis, y_axis, code):
            # The glyphs only fairly sure, the corner classifier sure of another card from the same frame: not
            # named here (left to the passes that ask the classifier first, ``_read_unnamed``), nor tried again
            # further out.
            self._unnamed.append(_Unnamed(at, x_axis, y_axis, quad, True))
            return None, 0
        return CardRead(code, conf, quad, "tl", False, index_box=r.box, alternatives=alts), located

    @staticmethod
    def _contradict(reads: list[CornerRead]) -> bool:
        """A corner that is clear on its own (its rank's and suit's top probabilities multiplied over
        ``CONTRADICT_CLEAR``) names another card than the corners together do: the two corners of one card
        disagree, and their product is no evidence for either card (nor is a prototype match). Until 2026-12-02
        only the clearest corner was asked: a softened real 10 of clubs read Q (0.72, its '1' lost) at one
        corner and 6 (0.59, the '0' alone) at the other, and the product named the queen at 0.78."""
        if len(reads) < 2:
            return False
        best = int(np.argmax(sum(r.card_scores() for r in reads)))
        return any(float(r.rank_p.max() * r.suit_p.max()) > CONTRADICT_CLEAR and int(np.argmax(r.card_scores()))
                   != best for r in reads)

    def _net_agrees(self, image: np.ndarray, origin: np.ndarray, x_axis: np.ndarray, y_axis: np.ndarray,
                    code: str) -> bool:
        """The whole-corner classifier as a second opinion on a guessed corner the glyphs read below the margin:
        it names the same card from the same frame at ``CORNER_NET_MIN`` or more."""
        named, conf = self._net_says(image, origin, x_axis, y_axis)
        return named == code and conf >= CORNER_NET_MIN

    def _net_denies(self, image: np.ndarray, origin: np.ndarray, x_axis: np.ndarray, y_axis: np.ndarray,
                    code: str) -> bool:
        """The whole-corner classifier names another card than ``code`` from the same frame, at
        ``CORNER_NET_MIN`` or more."""
        named, conf = self._net_says(image, origin, x_axis, y_axis)
        return named is not None and named != code and conf >= CORNER_NET_MIN

    def _net_says(self, image: np.ndarray, origin: np.ndarray, x_axis: np.ndarray, y_axis: np.ndarray
                  ) -> tuple[str | None, float]:
        """What the whole-corner classifier names at one frame, and how surely; (None, 0.0) without one."""
        if self.corner_net is None:
            return None, 0.0
        return self.corner_net.name(frame_input(image, origin, x_axis, y_axis)[None])[0]

    def _deck_agrees(self, reads: list[CornerRead], code: str) -> bool:
        """An enrolled deck as a second opinion: its own prototypes name the same card, confidently."""
        if self.deck is None:
            return False
        d_code, d_conf, _ = self.deck.decide(reads)
        return d_code == code and d_conf >= self.threshold + GUESSED_MARGIN

    @staticmethod
    def _dedupe(corner_reads: list[CardRead], whole: list[CardRead], card_w: float) -> list[CardRead]:
        """One read per card: corner reads whose extrapolated card coincides with a read whole card or with
        a better corner read are dropped. (A whole "card" that did not read may be a tight fan of two.)"""
        kept: list[CardRead] = []
        for r in sorted(corner_reads, key=lambda r: -r.confidence):
            c = r.centre
            # The same card read whole, unless this corner's index lies outside that card (a card beneath it)
            # or that 'card' did not read (a tight fan taken for one card).
            ib = r.index_box.mean(axis=0) if r.index_box is not None else c
            if any(w.code is not None and _inside(c, w.quad) and np.linalg.norm(c - w.centre) < 0.45 * card_w
                   and _inside(ib, w.quad) and not _stacked_on(r, w, card_w)
                   for w in whole):
                continue
            if any(np.linalg.norm(c - k.centre) < 0.15 * card_w for k in kept):
                continue
            kept.append(r)
        return kept

    def watch(self, frame: np.ndarray) -> Detection:
        """The cheap per-frame pass of the watch loop: where the cards are, no reading (any picture
        ``sources.as_bgr`` takes)."""
        frame = as_bgr(frame)
        return detect_cards(frame, work_side=max(frame.shape[:2]), corners=False)


@dataclass
class _Unnamed:
    """A guessed corner frame whose glyphs did not name a card (``Reader._read_guessed``): the frame as read (its
    outset applied) and the card it would be."""

    origin: np.ndarray
    x_axis: np.ndarray
    y_axis: np.ndarray
    quad: np.ndarray
    glyphs: bool  # the glyph locator found a rank over a suit there (that did not name a card)

    def named(self, code: str, confidence: float) -> CardRead:
        """The card this frame shows, named ``code``: its index where an index usually sits in the frame."""
        return CardRead(code, confidence, self.quad, "tl", False, index_box=np.array(
            [self.origin + u * self.x_axis + v * self.y_axis for u, v in INDEX_BOX], np.float32))


def index_corner_inputs(image: np.ndarray, quad: np.ndarray) -> tuple[list[int], np.ndarray]:
    """A whole card's index corners (``corner_frame``'s portrait ones, by number) and the corner classifier's
    input at each (``frame_input``; the frame starts ``OUTSET`` outside the corner), one row per corner."""
    q = np.asarray(quad, np.float64)
    frames = [(k, corner_frame(q, k)) for k in range(4)]
    starts = [k for k, (_, _, _, landscape) in frames if not landscape]
    inputs = [frame_input(image, o - OUTSET * (xa + ya), xa, ya) for _, (o, xa, ya, landscape) in frames
              if not landscape]
    return starts, np.stack(inputs) if inputs else np.zeros((0, 2, INPUT_H, INPUT_W), np.float32)


def corner_frame(quad: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, bool]:
    """The frame of a card outline's corner ``k`` (outline clockwise): origin, x axis along the edge to the next
    corner, y axis down the edge to the previous one scaled to the x axis's length (``read_corner``'s axes), and
    whether it is landscape (x more than 1.15 times y: a long edge on top, not an index corner)."""
    o = quad[k]
    xa = quad[(k + 1) % 4] - o
    ya = quad[(k - 1) % 4] - o
    landscape = bool(np.linalg.norm(xa) > np.linalg.norm(ya) * 1.15)
    return o, xa, ya / np.linalg.norm(ya) * np.linalg.norm(xa), landscape


def _normalised(image: np.ndarray) -> np.ndarray | None:
    """``image`` white-balanced on its brightest pixels (the top NORMALISE_TOP of each pixel's brightest channel,
    their mean made grey) and brightened until the 99th percentile of that channel is NORMALISE_TO; None where
    that changes no channel by a tenth."""
    v = image.max(axis=2)
    top = v >= np.percentile(v, 100 * (1 - NORMALISE_TOP))
    means = image[top].reshape(-1, 3).astype(np.float64).mean(axis=0)
    gain = means.max() / np.maximum(means, 1.0)
    bright = float(np.percentile(v, 99))
    gain *= max(1.0, NORMALISE_TO / max(bright, 1.0))
    if float(np.max(np.abs(gain - 1))) < 0.1:
        return None
    out: np.ndarray = cv2.convertScaleAbs(image.astype(np.float32) * gain.astype(np.float32))
    return out


def _geometric_mean(confidences: Sequence[float]) -> float:
    """The geometric mean of classifier confidences (each floored at 1e-9): the pooled rules' measure of a card
    said alike in several frames, none of them surely."""
    return float(np.exp(np.mean(np.log([max(p, 1e-9) for p in confidences]))))


def _share(r: CornerRead, card: int) -> float:
    """How much of one corner's belief among the 52 cards goes to ``card`` (its rank times suit probability over
    the sum over all cards)."""
    p = np.exp(r.card_scores())
    return float(p[card] / max(float(p.sum()), 1e-12))


def _names_a_rank(r: CornerRead) -> bool:
    """The corner holds an index, a rank over a suit each read at 0.5 or more: a face, unread or not. A court
    card's picture is not paper either, but a back has no index (its pattern may pass for a rank, not for a
    rank with a suit below it)."""
    return float(r.rank_p.max()) >= 0.5 and float(r.suit_p.max()) >= 0.5


def _ink_fits(suit: int | None, reads: list[CornerRead]) -> bool:
    """Hearts are red, and spades and clubs are not, in every deck we know of (two-colour, four-colour with blue
    or orange diamonds and green or grey clubs). A heart in dark ink, or a red (or orange) spade or club, is a
    misread suit."""
    red = float(np.mean([r.red for r in reads])) >= 0.5
    if suit == SUITS.index("h"):
        return red
    if suit in (SUITS.index("s"), SUITS.index("c")):
        # ...nor is a suit whose own ink is plainly red or orange, where a black or grey rank pulls the
        # corner's redness under the bar (a four-colour orange diamond read as a spade at 10 px)
        return not red and float(np.mean([r.suit_red for r in reads])) < SUIT_RED_MAX
    return True


def _index_share(reads: Sequence[CardRead], card_w: float) -> float:
    """The median height of the index boxes of the ``reads`` that name a card (rank and suit together: the box's
    longer side), over the card size ``card_w``; infinity with fewer than two such reads."""
    sides = [max(float(np.linalg.norm(r.index_box[3] - r.index_box[0])),
                 float(np.linalg.norm(r.index_box[2] - r.index_box[1])))
             for r in reads if r.code is not None and not r.face_down and r.index_box is not None]
    return float(np.median(sides)) / max(card_w, 1.0) if len(sides) >= 2 else float("inf")


def _tiles(shape: tuple[int, ...], card_w: float) -> list[np.ndarray]:
    """Rectangles (4 x 2, picture pixels) covering a picture of ``shape`` (height, width), each small enough for
    the index locator at ``card_w`` (``MAX_SIDE`` input pixels with its ``PAD`` round it), overlapping by a card
    width so that every corner index lies whole in one."""
    h, w = shape[:2]
    side = (MAX_SIDE / LOC_CW - 2 * PAD - 0.5) * card_w  # (half a card width spare for rounding)
    step = max(side - card_w, 1.0)
    out = []
    for y0 in np.arange(0.0, max(h - card_w, 1.0), step):
        for x0 in np.arange(0.0, max(w - card_w, 1.0), step):
            x1, y1 = min(float(w), x0 + side), min(float(h), y0 + side)
            out.append(np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]], np.float64))
    return out


def _index_at(f: Located) -> np.ndarray:
    """Where a located frame's index lies (``SCAN_INDEX`` along its axes)."""
    out: np.ndarray = f.origin + SCAN_INDEX[0] * f.x_axis + SCAN_INDEX[1] * f.y_axis
    return out


def _at_named(f: Located, quads: Sequence[np.ndarray], outlines: np.ndarray, card_w: float) -> bool:
    """Whether a located frame stands for a card already named: its index lies on one of ``quads``, or its
    origin within ``LOCATE_SEEN`` card widths of a corner of one of ``outlines`` (the named cards', n x 4 x 2,
    ``_outlines_of``): of its first or third (where the index stands), or of another where the frame's card lies
    ``LOCATE_SEEN_SHARE`` or more on that outline."""
    index = _index_at(f)
    if any(_inside(index, q) for q in quads):
        return True
    if not len(outlines):
        return False
    near = np.linalg.norm(outlines - f.origin, axis=2) < LOCATE_SEEN * card_w  # n x 4
    if not LOCATE_SEEN_SHARE:
        return bool(near.any())
    if near[:, [0, 2]].any():
        return True
    bare = np.nonzero(near[:, [1, 3]].any(axis=1))[0]
    if not len(bare):
        return False
    card = _card_at(f.origin, f.x_axis, f.y_axis)
    return any(_share_on(card, outlines[i], card_w) >= LOCATE_SEEN_SHARE for i in bare)


def _outlines_of(reads: Sequence[CardRead]) -> np.ndarray:
    """The reads' outlines (n x 4 x 2, float64), each from the card's printed top-left: ``_at_named``'s."""
    return np.array([r.quad.reshape(4, 2) for r in reads], np.float64).reshape(-1, 4, 2)


def _corners_of(reads: Sequence[CardRead]) -> np.ndarray:
    """Every corner of the reads' outlines (n x 2, float64): where a frame stands for a card already named."""
    return _outlines_of(reads).reshape(-1, 2)


def _pip_sized(quad: np.ndarray, card_w: float) -> bool:
    """An outline about one card big (its short side within ``PIP_SIZE`` of ``card_w``): one that may be named by its
    pips (a pair side by side, 1.4 times a card, can lay out a four's pips)."""
    return abs(short_side(quad) / max(card_w, 1.0) - 1) < PIP_SIZE


def _halves(quad: np.ndarray) -> list[np.ndarray]:
    """The two card outlines of a quad cut across its long sides (the pair-of-cards hypothesis)."""
    q = quad.astype(np.float32)
    a, b, c, d = q
    if np.linalg.norm(b - a) > np.linalg.norm(c - b):  # make a->b a short side
        a, b, c, d = b, c, d, a
    m1, m2 = (b + c) / 2, (a + d) / 2
    return [np.array([a, b, m1, m2], np.float32), np.array([m2, m1, c, d], np.float32)]


def _longest_edge(outline: np.ndarray) -> float:
    """``detect.longest_stretch`` of an outline held as n x 2 points."""
    c = outline.reshape(-1, 1, 2).astype(np.float32)
    return longest_stretch(c, cv2.arcLength(c, True))


def _stacked_on(corner: CardRead, whole: CardRead, card_w: float) -> bool:
    """A corner read inside a card read whole that names another card surely, at an index away from the one the
    whole card was named from (``STACKED_APART`` card widths): two cards, one laid a little off the other (a
    stacked slot of the Jokers variant), taken for one outline and named from the upper card's index."""
    return STACKED_KEEP and corner.code != whole.code and not whole.face_down and \
        corner.confidence >= STACKED_MIN and corner.index_box is not None and whole.index_box is not None and \
        float(np.linalg.norm(corner.index_box.mean(axis=0) - whole.index_box.mean(axis=0))) > STACKED_APART * card_w


def _held(hand: np.ndarray, reads: list[CardRead], card_w: float) -> list[CardRead]:
    """The reads whose index (or, with none, whose centre) lies in the hand's outline, or within a tenth of a card
    of it."""
    poly = hand.reshape(-1, 1, 2).astype(np.float32)
    return [r for r in reads if cv2.pointPolygonTest(poly, tuple(float(v) for v in (
        r.index_box.mean(axis=0) if r.index_box is not None else r.centre)), True) > -0.1 * card_w]


def _lacks_a_card(hand: np.ndarray, named: list[CardRead], card_w: float) -> bool:
    """A hand with fewer than ``HAND_CARDS`` of the cards ``named`` in it (``_held``), or that they leave
    ``UNCOVERED`` of a card's area uncovered: it may hold a card not read yet."""
    return len(_held(hand, named, card_w)) < HAND_CARDS or \
        _uncovered(hand, [r.quad for r in named], card_w) >= UNCOVERED


def _share_on(quad: np.ndarray, outline: np.ndarray, card_w: float) -> float:
    """How much of ``quad``'s area lies inside ``outline`` (both rasterised at 16 px per card width)."""
    k = 16.0 / card_w
    both = np.concatenate([quad.reshape(-1, 2), outline.reshape(-1, 2)]).astype(np.float64)
    at = both.min(axis=0)
    w, h = (np.ceil((both.max(axis=0) - at) * k) + 2).astype(int)
    card = np.zeros((h, w), np.uint8)
    cv2.fillPoly(card, [np.round((quad.reshape(-1, 2) - at) * k).astype(np.int32)], 1)
    hand = np.zeros_like(card)
    cv2.fillPoly(hand, [np.round((outline.reshape(-1, 2) - at) * k).astype(np.int32)], 1)
    area = np.count_nonzero(card)
    return float(np.count_nonzero(card & hand)) / area if area else 0.0


def _uncovered(outline: np.ndarray, quads: list[np.ndarray], card_w: float, thin: int = 0) -> float:
    """How much of a hand's outline no quad covers, in cards' areas (rasterised at 16 px per card width).
    ``thin``: strips of what is left this many raster pixels wide or less are not counted (opened away)."""
    k = 16.0 / card_w
    x, y, w, h = cv2.boundingRect(outline.reshape(-1, 1, 2).astype(np.float32))
    at = np.array([x, y], np.float64)
    hand = np.zeros((int(h * k) + 2, int(w * k) + 2), np.uint8)
    cv2.fillPoly(hand, [np.round((outline.reshape(-1, 2) - at) * k).astype(np.int32)], 1)
    for q in quads:
        cv2.fillPoly(hand, [np.round((q.reshape(-1, 2) - at) * k).astype(np.int32)], 0)
    if thin:
        square = np.ones((thin + 1, thin + 1), np.uint8)
        hand = cv2.dilate(cv2.erode(hand, square, anchor=(0, 0)), square, anchor=(thin, thin)).astype(np.uint8)
    return float(np.count_nonzero(hand)) / (16.0 * 16.0 * CARD_ASPECT)


def _near_outline(pt: np.ndarray, outline: np.ndarray, margin: float) -> bool:
    """``pt`` inside ``outline`` or within ``margin`` pixels of it."""
    return cv2.pointPolygonTest(outline.reshape(-1, 1, 2).astype(np.float32), (float(pt[0]), float(pt[1])),
                                True) >= -margin


def _inside(pt: np.ndarray, quad: np.ndarray) -> bool:
    return cv2.pointPolygonTest(quad.reshape(-1, 1, 2).astype(np.float32), (float(pt[0]), float(pt[1])), False) >= 0


def _unexplained_paper(det: Detection, named: list[np.ndarray], shape: tuple[int, ...]
                       ) -> list[tuple[int, int, int, int]]:
    """Boxes (x0, y0, x1, y1, full-resolution pixels) round the paper no card read explains (``named``: the
    outlines of the cards read, face-down ones too) where it is at least ``UNEXPLAINED_CARDS`` of a card's area,
    a card width wider all round (a card in shade beside the paper it lies on is no paper itself), overlapping
    boxes merged. The whole picture where the card size is a guess (from one close-up card, outlines from edges,
    or none) or there is no paper mask."""
    h, w = shape[:2]
    if det.paper is None or det.card_width <= 0 or det.size_from not in SIZED:
        return [(0, 0, w, h)]
    s = det.scale
    left = _paper_left(det, named, 5)
    cw = det.card_width / s
    _, _, stats, _ = components(left)
    # Overlapping boxes as one: each box takes in the boxes it overlaps, in the place of the first of them.
    boxes: list[list[float]] = []
    for x, y, bw, bh, area in stats[1:].tolist():
        if area < UNEXPLAINED_CARDS * cw * cw * CARD_ASPECT:
            continue
        b, at = [x - cw, y - cw, x + bw + cw, y + bh + cw], len(boxes)
        while (i := next((i for i, o in enumerate(boxes)
                          if o[0] < b[2] and b[0] < o[2] and o[1] < b[3] and b[1] < o[3]), None)) is not None:
            o = boxes.pop(i)
            b, at = [min(o[0], b[0]), min(o[1], b[1]), max(o[2], b[2]), max(o[3], b[3])], min(at, i)
        boxes.insert(at, b)
    return [(max(0, int(x0 * s)), max(0, int(y0 * s)), min(w, int(x1 * s)), min(h, int(y1 * s)))
            for x0, y0, x1, y1 in boxes]


def _paper_boxes(det: Detection, named: list[np.ndarray], shape: tuple[int, ...]) -> list[tuple[int, int, int, int]]:
    """Boxes (x0, y0, x1, y1, full-resolution pixels) round each piece of paper ``EVERYWHERE_CARDS`` of a card's
    area or more that no outline ``named`` covers, ``EVERYWHERE_MARGIN`` card widths wider all round (the mask found
    at half the working resolution: a box, not an outline, is wanted); off a light cloth, not round a white chip
    (a piece under ``CHIP_CARDS`` of a card whose hull is rounder than ``CHIP_ROUND``). The whole picture where there
    is no paper mask or card size."""
    h, w = shape[:2]
    if det.paper is None or det.card_width <= 0:
        return [(0, 0, w, h)]
    left = _paper_left(det, named, 3)
    half = cv2.resize(left, (max(1, left.shape[1] // 2), max(1, left.shape[0] // 2)), interpolation=cv2.INTER_AREA)
    s = det.scale * left.shape[1] / half.shape[1]  # full-resolution pixels a half-mask pixel
    cw = det.card_width / s
    _, labels, stats, _ = components((half > 127).astype(np.uint8), 8)
    m = EVERYWHERE_MARGIN * cw
    out = []
    for i, (x, y, bw, bh, area) in enumerate(stats[1:].tolist(), start=1):
        if area < EVERYWHERE_CARDS * cw * cw * CARD_ASPECT:
            continue
        if not det.light and area < CHIP_CARDS * cw * cw * CARD_ASPECT:  # a lone white chip: its hull a disc
            piece = (labels[y:y + bh, x:x + bw] == i).astype(np.uint8)
            cnts, _ = cv2.findContours(piece, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
            if cnts and round_hull(max(cnts, key=cv2.contourArea), CHIP_ROUND):
                continue
        out.append((max(0, int((x - m) * s)), max(0, int((y - m) * s)), min(w, int((x + bw + m) * s)),
                    min(h, int((y + bh + m) * s))))
    return out


def _paper_left(det: Detection, outlines: list[np.ndarray], opening: int) -> np.ndarray:
    """The paper mask (``det.paper``, working resolution) less ``outlines`` (full-resolution pixels), each taken
    in 1.08 times its size about its middle (an outline is found a pixel or two small), opened by ``opening``
    pixels (the slivers left along the outlines' edges)."""
    assert det.paper is not None
    left = det.paper.copy()
    for q in outlines:
        q = q.reshape(-1, 2)
        c = q.mean(axis=0)
        cv2.fillPoly(left, [np.round((c + 1.08 * (q - c)) / det.scale).astype(np.int32)], 0)
    out: np.ndarray = cv2.morphologyEx(left, cv2.MORPH_OPEN, np.ones((opening, opening), np.uint8))
    return out


def _card_at(origin: np.ndarray, x_axis: np.ndarray, y_axis: np.ndarray) -> np.ndarray:
    """The card outline (4 x 2, float32, clockwise from ``origin``) a corner frame stands for: ``x_axis`` and
    ``y_axis`` one card width long, the card ``CARD_ASPECT`` widths along y."""
    return np.array([origin, origin + x_axis, origin + x_axis + CARD_ASPECT * y_axis, origin + CARD_ASPECT * y_axis],
                    np.float32)


def _loose_edge_hands(det: Detection, named: list[CardRead], hands: Sequence[np.ndarray]) -> list[np.ndarray]:
    """The regions edges enclose (``Detection.edge_hands``) whose middle lies in none of ``hands`` nor in a card
    ``named`` (read whole), or that those cards leave ``LOOSE_UNCOVERED`` of a card's area uncovered (on a white
    cloth, the top card of a hand named whole from its edge outline, the lower card's index showing beside it)."""
    quads = [r.quad for r in named]
    out = []
    for h in det.edge_hands:
        middle = h.mean(axis=0)
        if not any(_inside(middle, o.reshape(-1, 2)) for o in hands):
            if not any(_inside(middle, q) for q in quads) or \
                    _uncovered(h, quads, det.card_width) >= LOOSE_UNCOVERED:
                out.append(h)
        elif LOOSE_BEYOND_HANDS and _uncovered(h, quads + [o.reshape(-1, 2) for o in hands],
                                               det.card_width, LOOSE_THIN) >= LOOSE_BEYOND:
            # Its middle in a hand, but reaching well beyond it and the cards read: a stacked slot's lower card,
            # whose strip above the upper one the paper mask lost, the slot's edges taking it in.
            out.append(h)
    return out


def _loose_paper(det: Detection, named: list[np.ndarray]) -> list[np.ndarray]:
    """Outlines (full-resolution pixels) of the paper that no card read explains and no hand took in, at least
    ``LOOSE_CARDS`` of a card's area: a card the picture's edge cuts, a card half under something, one whose
    outline ran into what it lies on, its index still showing."""
    if det.paper is None or det.card_width <= 0:
        return []
    s = det.scale
    left = _paper_left(det, named + det.hands, 3)
    cw = det.card_width / s
    cnts, _ = cv2.findContours(left, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    card = cw * cw * CARD_ASPECT
    return [c.reshape(-1, 2).astype(np.float32) * s for c in cnts
            if LOOSE_CARDS * card <= cv2.contourArea(cv2.convexHull(c)) <= LOOSE_MOST * card]


def _without_tight_fans(reads: list[CardRead], corner_reads: list[CardRead]) -> list[CardRead]:
    """``reads`` less the unread whole "cards" that hold a card of ``corner_reads`` (read from its corner): such a
    "card" was a tight fan of two."""
    return [r for r in reads if r.code is not None or r.face_down
            or not any(_inside(b.centre, r.quad) for b in corner_reads)]


def _in_quad(points: np.ndarray, quad: np.ndarray) -> np.ndarray:
    """Which of ``points`` (n x 2) lie inside the convex ``quad`` (4 x 2, either winding) or on its edge."""
    q = np.asarray(quad, np.float64)
    e = np.roll(q, -1, axis=0) - q
    dx, dy = points[:, 0][:, None] - q[:, 0][None], points[:, 1][:, None] - q[:, 1][None]
    cross = e[:, 0][None] * dy - e[:, 1][None] * dx
    return np.asarray((cross >= 0).all(axis=1) | (cross <= 0).all(axis=1))


def _backs_explain(paper: Sequence[np.ndarray], backs: Sequence[np.ndarray], det: Detection) -> bool:
    """Backs were seen and each outline of ``paper`` (full-resolution pixels) is explained by them: it lies mostly
    within one of them grown BACKS_GROWN about its centre (over half its points: the white edges of fanned
    backs), or it is bare, under BARE_INK of what it encloses off the paper mask at the working resolution (glare
    round them: no index there to read at any size)."""
    if not backs:
        return False
    grown = []
    for back in backs:
        q = np.asarray(back, np.float64)
        c = q.mean(axis=0)
        grown.append(c + BACKS_GROWN * (q - c))
    for outline in paper:
        pts = np.asarray(outline, np.float64).reshape(-1, 2)
        inside = np.zeros(len(pts), bool)
        for g in grown:
            inside |= _in_quad(pts, g)
        if inside.mean() > 0.5:
            continue
        if det.paper is None:
            return False
        fill = np.zeros(det.paper.shape[:2], np.uint8)
        cv2.fillPoly(fill, [np.round(pts / det.scale).astype(np.int32).reshape(-1, 1, 2)], 1)
        enclosed = int(np.count_nonzero(fill))
        if enclosed == 0 or np.count_nonzero(fill & (det.paper == 0)) >= BARE_INK * enclosed:
            return False
    return True


def _same_blob(hand: np.ndarray, back: np.ndarray, card_w: float) -> bool:
    """Whether ``hand`` (an outline) and ``back`` (a rectangle) are one blob, taken for face-down cards."""
    return bool(np.linalg.norm(back.mean(axis=0) - hand.reshape(-1, 2).mean(axis=0)) < 0.3 * card_w)


def _edge_back(image: np.ndarray, quad: np.ndarray, card_w: float) -> bool:
    """An outline found from edges alone that looked like a back is one (``Reader.edge_backs``): a card's size (its
    short side within a fifth of ``card_w``), clear of the picture's border, and the colour round it not
    showing inside (``_mat_inside``)."""
    h, w = image.shape[:2]
    side = short_side(quad)
    return bool(abs(side / card_w - 1) <= 0.2 and quad[:, 0].min() > 2 and quad[:, 1].min() > 2
                and quad[:, 0].max() < w - 3 and quad[:, 1].max() < h - 3
                and _mat_inside(image, quad) < EDGE_BACK_MAT)


def _mat_inside(image: np.ndarray, quad: np.ndarray, px: int = 48) -> float:
    """The share of an outline's inside (its middle, 0.8 of it across) that has the colour round it (the median
    of a band about a sixth of its width wide just outside it; Lab distance under 30): near 0 for a card lying
    there, high for a frame of chips or clutter with the mat between."""
    c = quad.mean(axis=0)
    grown = (c + 1.4 * (quad - c)).astype(np.float32)
    m = cv2.getPerspectiveTransform(grown, np.array([[0, 0], [px, 0], [px, px], [0, px]], np.float32))
    lab = cv2.cvtColor(cv2.warpPerspective(image, m, (px, px)), cv2.COLOR_BGR2LAB).astype(np.int16)
    u = (np.arange(px) + 0.5) / px - 0.5  # -0.5..0.5 across the grown frame; the outline is at +-0.5/1.4
    r = np.maximum(np.abs(u)[:, None], np.abs(u)[None, :]) * 1.4
    ring, inner = r > 0.5 * 1.06, r < 0.4
    mat = np.median(lab[ring], axis=0)
    return float((np.abs(lab[inner] - mat).sum(axis=1) < 30).mean())


def _hand_back(image: np.ndarray, hand: np.ndarray, reads: list[CardRead], card_w: float) -> np.ndarray | None:
    """The rectangle of a hand (a paper blob not one card) that is face-down cards after all (HAND_BACK): no
    card read in it, card-sized or more, solid, patterned like a back all over; else None."""
    c = hand.reshape(-1, 1, 2).astype(np.float32)
    area = cv2.contourArea(c)
    (_, (rw, rh), _) = rect = cv2.minAreaRect(c)
    if area < HAND_BACK * CARD_ASPECT * card_w * card_w or max(rw, rh) >= HAND_ASPECT * min(rw, rh) or \
            area < HAND_BACK_SOLID * cv2.contourArea(cv2.convexHull(c)):
        return None
    if any(_inside(p, hand) for r in reads
           for p in ([r.centre] if r.index_box is None else [r.centre, r.index_box.mean(axis=0)])):
        return None
    quad = order_clockwise(cv2.boxPoints(rect))
    if _looks_like_back(image, quad, HAND_BACK_PAPER) and \
            _plainest_tile(image, quad, HAND_BACK_PLAIN) >= HAND_BACK_TEXTURE:
        return quad
    return None


def _plainest_tile(image: np.ndarray, quad: np.ndarray, nth: int = 0, px: int = 120) -> float:
    """How much texture the plainest part of ``quad``'s inside has: the mean |Laplacian| (grey levels, after a
    3x3 blur) of the least textured of 4 x 4 tiles across its middle 0.8, warped to ``px`` square (``nth``: of the
    tile so many places up from the plainest)."""
    m = cv2.getPerspectiveTransform(quad.astype(np.float32),
                                    np.array([[0, 0], [px, 0], [px, px], [0, px]], np.float32))
    grey = cv2.cvtColor(cv2.warpPerspective(image, m, (px, px)), cv2.COLOR_BGR2GRAY)
    lap = np.abs(cv2.Laplacian(cv2.GaussianBlur(grey, (3, 3), 0), cv2.CV_32F))
    t, n = px // 10, 4
    step = (px - 2 * t) // n
    tiles = lap[t:t + n * step, t:t + n * step].reshape(n, step, n, step).mean(axis=(1, 3))
    return float(np.sort(tiles.ravel())[nth])


def _looks_like_back(image: np.ndarray, quad: np.ndarray, paper_max: float = 0.45) -> bool:
    """A face-down card: the inside is patterned or coloured (under ``paper_max`` of its middle paper), not white
    paper with a few glyphs."""
    w = int(np.linalg.norm(quad[1] - quad[0]))
    h = int(np.linalg.norm(quad[3] - quad[0]))
    if w < 8 or h < 8:
        return False
    narrow = w < MARGIN_MIN_PX
    # Looked at BACK_PX across at most: a hand of a whole table's size taken for one "card" on a white cloth
    # cost 50 ms a warp at full size.
    k = min(1.0, BACK_PX / min(w, h))
    w, h = max(8, int(w * k)), max(8, int(h * k))
    m = cv2.getPerspectiveTransform(quad.astype(np.float32),
                                    np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32))
    card = cv2.warpPerspective(image, m, (w, h))
    hsv = cv2.cvtColor(card, cv2.COLOR_BGR2HSV).astype(np.int16)
    paperness = hsv[:, :, 2] - hsv[:, :, 1]  # bright and unsaturated, relative to this card (colour casts)
    ref = float(np.percentile(paperness, 95))
    paper = paperness > 0.75 * ref
    inner = paper[h // 6: h - h // 6, w // 6: w - w // 6]
    if float(inner.mean()) >= paper_max:
        return False
    # A court card's picture is not paper either, but it sits in a frame with a paper margin down both long
    # sides (where the index is); a back's pattern runs to the card's edge or to a thin white border.
    if narrow:
        return True
    if h < w:  # landscape: look along the long sides all the same
        paper, w, h = paper.T, h, w
    rows = slice(h // 5, h - h // 5)
    a, b = MARGIN_BAND
    margins = [paper[rows, int(a * w):int(b * w)], paper[rows, int((1 - b) * w):int((1 - a) * w)]]
    return not all(m.size and float(m.mean()) > 0.7 for m in margins)


def _rotated(v: np.ndarray, deg: float) -> np.ndarray:
    """``v`` turned by ``deg`` degrees (clockwise on screen, y down)."""
    a = np.radians(deg)
    c, s = np.cos(a), np.sin(a)
    return np.array([c * v[0] - s * v[1], s * v[0] + c * v[1]], np.float32)


def _touching_frames(corner: CornerCandidate, quad: np.ndarray, card_w: float
                     ) -> list[tuple[np.ndarray, np.ndarray]] | None:
    """Where ``corner`` is a named card's corner that has no index (``quad`` corners 1 and 3: top right, bottom
    left), the frames (x and y axes) of a card touching it there, the next in a row laid side by side: its own
    frame turned by ``TOUCHING_TURNS``, less those that point into the named card. None elsewhere."""
    d = np.linalg.norm(quad - corner.origin, axis=1)
    if int(np.argmin(d)) not in (1, 3) or float(d.min()) >= FAR_CORNER * card_w:
        return None
    frames = [(_rotated(corner.x_axis, turn), _rotated(corner.y_axis, turn)) for turn in TOUCHING_TURNS]
    return [(xa, ya) for xa, ya in frames if not _inside(corner.origin + FAR_PROBE * (xa + ya), quad)]


def _turns(corner: CornerCandidate, hands: Sequence[np.ndarray], card_w: float) -> list[float]:
    """The turns (degrees) that square ``corner``'s frame up on the other straight edges (a fifth of a card or
    longer) of the hand it lies in: ``TURN_DEG`` off its own axes, modulo 90, one per direction, along the
    ``TURNS`` longest such edges."""
    at = (float(corner.origin[0]), float(corner.origin[1]))
    best: tuple[float, np.ndarray] | None = None
    for h in hands:
        poly = h.reshape(-1, 1, 2).astype(np.float32)
        d = cv2.pointPolygonTest(poly, at, True)
        if d > -0.1 * card_w and (best is None or d > best[0]):
            best = (d, poly)
    if best is None:
        return []
    own = float(np.degrees(np.arctan2(corner.x_axis[1], corner.x_axis[0])))
    out: list[float] = []
    for a in edge_angles(best[1], card_w, longest_first=True).tolist():
        d = (a - own + 45.0) % 90.0 - 45.0
        if TURN_DEG[0] < abs(d) <= TURN_DEG[1] and all(abs(d - e) > 4.0 for e in out):
            out.append(d)
    return out[:TURNS]
