"""A goal that names an action every row of a list carries ("open an episode's More options") names any
row's: once a few rows' buttons opened one layout, the others are samples like any row, and the explorer
goes on to the rest of the goal instead of opening the menu of every episode in turn. A row whose own
label the goal names (`商品 300` of `商品 1`..`商品 300`) is still tried whatever the samples say."""

from __future__ import annotations

from pathlib import Path

from pytest_fairy.brain.samples import Samples
from tests.explorer.inline_apps import Recorded, explore_inline
from tests.perception.builder import v
from tests.screens import button, screen_of

APP = """
app: {name: PodWave, package: com.example.podwave, launch: library}
variables: {picked: 0, downloaded: 0}
screens:
  - id: library
    activity: .MainActivity
    title: Library
    up: false
    elements:
      - {id: row_show, text: Science Weekly, on_tap: [{go: show}]}
      - {class: Button, id: btn_downloads, text: Downloads, on_tap: [{go: downloads}]}
  - id: show
    activity: .ShowActivity
    title: Science Weekly
    elements:
      - class: RecyclerView
        id: rv_episodes
        list:
          rows: 24
          row_height: 200
          row:
            class: LinearLayout
            orientation: horizontal
            children:
              - {id: tv_episode, text: "Episode {i}", weight: 4}
              - {class: ImageButton, id: btn_more, desc: More options, weight: 1,
                 on_tap: [{set: {picked: "{i}"}}, {dialog: actions}]}
  - id: downloads
    activity: .DownloadsActivity
    title: Downloads
    elements:
      - {text: No downloads yet, when: "downloaded == 0"}
      - {text: "Science Weekly - Episode {var:downloaded}", when: "downloaded > 0"}
dialogs:
  - id: actions
    kind: sheet
    elements:
      - {id: act_download, text: Download, on_tap: [{set: {downloaded: "{var:picked}"}}, {toast: Downloading}, close]}
      - {id: act_share, text: Share episode, on_tap: [{toast: Link copied}, close]}
"""

SPEC = """
app: {name: PodWave, package: com.example.podwave, virtual: app.yaml}
features:
  - name: download an episode
    goal: open Science Weekly, open an episode's More options, tap Download, then find the episode in Downloads
    max_steps: 20
    done_when:
      - visible: Science Weekly - Episode
      - activity: .DownloadsActivity
"""


def test_the_action_every_row_carries_is_sampled_and_the_goal_goes_on(tmp_path: Path) -> None:
    sink = Recorded()
    result = explore_inline(tmp_path, APP, SPEC, sinks=[sink])
    steps = [(s.title, s.action or "") for s in sink.steps]
    assert result.verdict.value == "passed", (result.reason, steps)
    menus = [action for _, action in steps if "More options" in action]
    assert len(menus) <= 3, steps


def test_a_row_action_the_goal_names_is_sampled_once_its_label_was_tried() -> None:
    rows = [
        v(
            "LinearLayout",
            (0, 200 + i * 150, 1080, 340 + i * 150),
            v("TextView", (40, 210 + i * 150, 800, 330 + i * 150), text=f"商品 {i + 1}"),
            v(
                "ImageButton",
                (900, 210 + i * 150, 1040, 330 + i * 150),
                rid="btn_more",
                desc="More options",
                clickable=True,
            ),
            rid=f"row_{i}",
            clickable=True,
        )
        for i in range(4)
    ]
    screen = screen_of(*rows)
    samples = Samples()
    samples.see(screen)
    more = [mark.ref for mark in screen.marks if mark.label == "More options"]
    menu = screen_of(button("Download", 0))
    for i, ref in enumerate(more[:2]):
        samples.stood_on(f"menu{i}", menu)
        samples.tried(ref, "More options")
        samples.led(ref, f"menu{i}")
    assert samples.worth(more[2], "More options", relevant=True, named=True) is False
