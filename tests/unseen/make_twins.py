"""Make each bug twin from its clean twin: copy, apply exactly one described change, copy the spec."""
from pathlib import Path

HERE = Path(__file__).resolve().parent
TWINS = {
    "helpdesk_ticket": ("BUG: with every field set, Submit ticket shows an error instead of creating the ticket.", [
        ('          - {when: "not form_error", go: ticket_created}',
         '          - {when: "not form_error", set: {server_error: true}}'),
    ]),
    "clinic_booking": ("BUG: 提交预约 on an empty form shows no error (the errors only show once both fields are filled, i.e. never).", [
        ("          - {set: {tried: true}}",
         "          - {when: \"patient != '' and phone != ''\", set: {tried: true}}"),
    ]),
    "recipe_saved": ("BUG: Save recipe says \"Recipe saved\" but saves nothing: Saved recipes stays empty.", [
        ('              - {set: {saved_name: "{var:current_recipe}", has_saved: true}}\n', ""),
    ]),
    "flash_sale": ("BUG: the flash-sale row 商品 150 · 限时特价 does nothing when tapped.", [
        ('text: "商品 150 · 限时特价", clickable: true, on_tap: [{go: deal}]}',
         'text: "商品 150 · 限时特价", clickable: true, on_tap: []}'),
    ]),
    "todo_tasks": ("BUG: Save in the New task dialog is a dead button.", [
        ("""            on_tap:
              - {when: "new_title == ''", toast: "Title can't be empty"}
              - {when: "new_title != ''", inc: {task_count: 1}}
              - {when: "new_title != ''", close: true}
""", """            on_tap: []
"""),
    ]),
    "music_tabs": ("BUG: the Library tab crashes the app.", [
        ("          - {id: tab_library, text: Library, clickable: true, on_tap: [{set: {tab: library}}]}",
         """          - id: tab_library
            text: Library
            clickable: true
            on_tap:
              - crash:
                  exception: java.lang.NullPointerException
                  message: "Attempt to invoke virtual method 'int java.util.List.size()' on a null object reference"
                  frames:
                    - fm.melodia.player.library.LibraryFragment.onCreateView(LibraryFragment.java:64)"""),
    ]),
    "news_drawer": ("BUG: the drawer's last item, 意见反馈, opens 关于每日新闻 (the wrong screen).", [
        ("      - {id: nav_feedback, text: 意见反馈, clickable: true, on_tap: [{go: feedback}]}",
         "      - {id: nav_feedback, text: 意见反馈, clickable: true, on_tap: [{go: about}]}"),
    ]),
    "fitness_onboarding": ("BUG: Get started on the last onboarding page makes the app stop responding (ANR).", [
        ("""          - {set: {onboarded: true}}
          - {replace: home}""",
         """          - {anr: {reason: "Input dispatching timed out (MotivationActivity is not responding)"}}"""),
    ]),
    "library_search": ("BUG: searching (搜索 or Enter) opens an error page (HTTP 500) instead of the results.", [
        ("        on_enter: [{when: \"query != ''\", go: results}]",
         "        on_enter: [{when: \"query != ''\", go: search_error}]"),
        ("         on_tap: [{when: \"query != ''\", go: results}]}",
         "         on_tap: [{when: \"query != ''\", go: search_error}]}"),
    ]),
    "reader_settings": ("BUG: the library resets Night reading mode each time it comes back to front: the setting is lost.", [
        ("    on_show: []", "    on_show: [{set: {night_mode: false}}]"),
    ]),
    "drive_login": ("BUG: the shared folder 项目资料（共享） opens an error page (加载失败 E1003).", [
        ("text: 项目资料（共享）, on_tap: [{go: shared_folder}]}",
         "text: 项目资料（共享）, on_tap: [{go: load_error}]}"),
    ]),
    "parcel_sheet": ("BUG: Apply in the delivery-speed sheet closes it without applying the choice: the speed stays Standard.", [
        ('          - {set: {speed: "{var:speed_choice}"}}\n', ""),
    ]),
}

for name, (note, changes) in TWINS.items():
    clean = HERE / f"{name}_clean"
    bug = HERE / name
    bug.mkdir(exist_ok=True)
    text = (clean / "app.yaml").read_text(encoding="utf-8")
    for old, new in changes:
        assert text.count(old) == 1, (name, old)
        text = text.replace(old, new)
    (bug / "app.yaml").write_text(f"# {note}\n" + text, encoding="utf-8")
    spec = (clean / f"test_{name}_clean.yaml").read_text(encoding="utf-8")
    spec = spec.replace(f"{name}_clean/test_{name}_clean.yaml", f"{name}/test_{name}.yaml")
    (bug / f"test_{name}.yaml").write_text(spec, encoding="utf-8")
    print("made", name)
