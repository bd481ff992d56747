"""The app model: a virtual Android app described in YAML, validated by pydantic.

Every model class forbids unknown keys, so a typo in an app model is an error with a line number
(see `loader.py`) instead of a silently ignored key. `docs/virtual-apps.md` documents each key.
"""

from __future__ import annotations

from typing import Any, ClassVar, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

Scalar = bool | int | float | str

DEFAULT_SIZE = (1080, 2400)
DEFAULT_TOAST_SECONDS = 2.0  # Toast.LENGTH_SHORT on Android (LENGTH_LONG: 3.5)

# Short class names an app model may use, and the class a real dump reports for them.
CLASS_NAMES: dict[str, str] = {
    **{
        name: f"android.widget.{name}"
        for name in (
            "Button",
            "TextView",
            "EditText",
            "ImageView",
            "ImageButton",
            "CheckBox",
            "RadioButton",
            "RadioGroup",
            "Switch",
            "ToggleButton",
            "LinearLayout",
            "FrameLayout",
            "RelativeLayout",
            "ScrollView",
            "HorizontalScrollView",
            "ListView",
            "GridView",
            "ProgressBar",
            "SeekBar",
            "Spinner",
            "TabWidget",
        )
    },
    "View": "android.view.View",
    "ViewGroup": "android.view.ViewGroup",
    "WebView": "android.webkit.WebView",
    "RecyclerView": "androidx.recyclerview.widget.RecyclerView",
    "ViewPager": "androidx.viewpager.widget.ViewPager",
    "CardView": "androidx.cardview.widget.CardView",
    "ConstraintLayout": "androidx.constraintlayout.widget.ConstraintLayout",
    "TabLayout": "com.google.android.material.tabs.TabLayout",
    "BottomNavigationView": "com.google.android.material.bottomnavigation.BottomNavigationView",
}


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)


class Toast(Strict):
    text: str
    duration: float | None = Field(default=None, gt=0)  # seconds; None: device.toast_duration


class ExternalScreen(Strict):
    """A screen of another app (share sheet target, browser, map...): shown until back."""

    package: str
    activity: str = ".MainActivity"
    title: str = ""


class Permission(Strict):
    """A runtime permission request drawn by com.android.permissioncontroller."""

    name: str = "android.permission.READ_CALENDAR"
    message: str = ""  # default: built from `label` and the app name in the device locale
    label: str = ""  # what is asked for, e.g. 日历 / your calendar
    var: str | None = None  # set to true / false by the answer; once true the dialog is skipped
    on_allow: list[Effect] = []
    on_deny: list[Effect] = []


class Crash(Strict):
    exception: str = "java.lang.NullPointerException"
    message: str = "Attempt to invoke virtual method on a null object reference"
    frames: list[str] = []  # app frames on top of the stack; default: one in the current activity


class Anr(Strict):
    reason: str = "Input dispatching timed out"


class Effect(Strict):
    """One step of what a tap / long tap / Enter does. Exactly one action key, plus an optional `when`
    (checked when the effect runs) and `after` (it runs that many seconds later on the phone's clock)."""

    FLAG_ACTIONS: ClassVar[tuple[str, ...]] = ("back", "finish", "close", "restart", "anr")

    when: str | None = None
    after: float | None = Field(default=None, gt=0)
    go: str | None = None
    replace: str | None = None  # like go, but the current screen leaves the back stack (finish())
    reset: str | None = None  # the back stack emptied, this screen its only one (a logout's login screen)
    back: bool = False
    finish: bool = False  # the current screen leaves the back stack, as its activity's finish(): no on_back
    dialog: str | None = None
    close: bool = False
    set: dict[str, Scalar] | None = None
    inc: dict[str, int | float] | None = None
    calc: dict[str, str] | None = None  # variables set to what an arithmetic expression gives
    toast: str | Toast | None = None
    restart: bool = False
    open: ExternalScreen | None = None
    permission: Permission | None = None
    crash: Crash | None = None
    anr: Anr | bool | None = None

    @model_validator(mode="before")
    @classmethod
    def _flag_shorthand(cls, value: Any) -> Any:
        """`- back` is short for `- back: true` (likewise finish / close / restart / anr)."""
        if isinstance(value, str) and value in cls.FLAG_ACTIONS:
            return {value: True}
        return value

    @model_validator(mode="after")
    def _one_action(self) -> Effect:
        given = [name for name in self.action_keys() if getattr(self, name) not in (None, False)]
        if len(given) != 1:
            raise ValueError(
                f"an effect needs exactly one action ({', '.join(self.action_keys())}); got {given or 'none'}"
            )
        return self

    @staticmethod
    def action_keys() -> tuple[str, ...]:
        return (
            "go",
            "replace",
            "reset",
            "back",
            "finish",
            "dialog",
            "close",
            "set",
            "inc",
            "calc",
            "toast",
            "restart",
            "open",
            "permission",
            "crash",
            "anr",
        )

    @property
    def action(self) -> str:
        return next(name for name in self.action_keys() if getattr(self, name) not in (None, False))


class RowList(Strict):
    """The rows of a RecyclerView-like list: `rows: 200` with a `row` template, or explicit rows."""

    rows: int | list[Element] = Field(default=0)
    row: Element | None = None  # template when `rows` is a count; `{i}` in its texts is the row number
    row_height: int = Field(default=180, gt=0)
    on_tap: list[Effect] = []  # tapping a row; `{i}` in `set` values is the row number
    on_swipe: list[Effect] = []  # swiping a row sideways (swipe to delete, to archive); `{i}` as on_tap

    @model_validator(mode="after")
    def _template_for_count(self) -> RowList:
        if isinstance(self.rows, int) and self.rows > 0 and self.row is None:
            raise ValueError("`rows` is a count, so a `row` template is needed")
        return self


class Element(Strict):
    text: str = ""
    id: str = ""  # resource-id; a bare name becomes PACKAGE:id/NAME
    desc: str = ""  # content-desc
    class_: str = Field(default="TextView", alias="class")
    hint: str = ""
    style: Literal["plain", "primary", "danger", "title", "caption", "card", "link"] = "plain"
    clickable: bool | None = None
    long_clickable: bool | None = None
    checkable: bool | None = None
    checked: bool = False
    scrollable: bool | None = None
    editable: bool | None = None
    focusable: bool | None = None
    enabled: bool = True
    password: bool = False
    selected: bool = False
    when: str | None = None
    var: str | None = None  # EditText: holds the typed text; CheckBox / Switch: holds true / false
    group: str | None = None  # RadioButton: the variable holding the chosen value
    value: Scalar | None = None  # RadioButton: the value it stands for
    bounds: tuple[int, int, int, int] | None = None
    height: int | None = Field(default=None, gt=0)
    weight: float = Field(default=1.0, gt=0)
    fill: bool = False
    dock: Literal["bottom"] | None = None
    orientation: Literal["vertical", "horizontal"] = "vertical"
    padding: int = Field(default=0, ge=0)
    children: list[Element] = []
    row_list: RowList | None = Field(default=None, alias="list")
    on_tap: list[Effect] = []
    on_long_tap: list[Effect] = []
    on_enter: list[Effect] = []

    @field_validator("class_")
    @classmethod
    def _known_class(cls, value: str) -> str:
        if "." not in value and value not in CLASS_NAMES:
            raise ValueError(f"unknown class {value!r}; short names: {', '.join(sorted(CLASS_NAMES))}")
        return value

    @field_validator("bounds")
    @classmethod
    def _not_inverted(cls, value: tuple[int, int, int, int] | None) -> tuple[int, int, int, int] | None:
        if value is not None and (value[2] < value[0] or value[3] < value[1]):
            raise ValueError(
                f"bounds {list(value)} are inverted: [left, top, right, bottom] needs "
                "right >= left and bottom >= top"
            )
        return value

    @model_validator(mode="after")
    def _consistent(self) -> Element:
        if (self.group is None) != (self.value is None):
            raise ValueError("a radio button needs both `group` and `value`")
        if self.row_list is not None and self.children:
            raise ValueError("an element has either `children` or a `list`, not both")
        return self

    @property
    def class_name(self) -> str:
        return CLASS_NAMES.get(self.class_, self.class_)

    @property
    def short_class(self) -> str:
        return self.class_name.rsplit(".", 1)[-1]


class Screen(Strict):
    id: str
    activity: str  # ".HomeActivity" is relative to the app package
    title: str = ""  # toolbar title; empty: no toolbar
    up: bool | None = None  # toolbar "navigate up" button; default: on every screen but the launch one
    elements: list[Element] = []
    actions: list[Element] = []  # the toolbar's action items, right-aligned: icons, a Save, a ⋮ menu
    on_show: list[Effect] = []  # run when the screen comes to front (redirects: login walls)
    on_back: list[Effect] = []  # run on Back instead of leaving the screen; `back` in it leaves

    @model_validator(mode="after")
    def _actions_need_a_toolbar(self) -> Screen:
        if self.actions and not self.title:
            raise ValueError("toolbar `actions` need a `title`: a screen without one has no toolbar")
        return self


class Dialog(Strict):
    id: str
    kind: Literal["dialog", "sheet", "popup", "drawer"] = "dialog"
    title: str = ""
    message: str = ""
    elements: list[Element] = []
    dismiss_on_outside: bool = True  # a tap outside the panel closes it (Android's default)
    cancelable: bool = True  # Back closes it
    on_back: list[Effect] = []  # run on Back instead of closing it; `back` in it closes (if cancelable)
    width: int | None = Field(default=None, gt=0)  # popup / dialog panel width in pixels


class Variable(Strict):
    initial: Scalar
    persist: bool = False  # survives the app process dying (SharedPreferences), e.g. logged_in


class Latency(Strict):
    dump: float = Field(default=0.35, ge=0)  # seconds; a real uiautomator dump takes a few hundred ms
    screenshot: float = Field(default=0.25, ge=0)
    action: float = Field(default=0.12, ge=0)
    # A phone's UI animates after an input action: for this long a dump or screenshot still shows the
    # screen as it was before the action, until `wait_idle` (uiautomator's waitForIdle) has waited it out.
    settle: float = Field(default=0.0, ge=0)
    logcat: float = Field(default=0.0, ge=0)  # one `logcat -d` read


class Durations(Strict):
    """Seconds each call takes on the phone's clock: what moves the device's time from action to action, so
    that a toast is gone a few actions after it showed. The run never waits for these (`latency` is what it
    waits); with latency on, a call takes the longer of the two."""

    # A tap: finger down and up, and the UI's first reaction (a ripple, the next screen's transition).
    # A long tap takes its hold (the call's `duration`) plus this.
    tap: float = Field(default=0.4, ge=0)
    # After a swipe's stroke (the call's own `duration`): the content flinging on and coming to rest.
    swipe: float = Field(default=0.5, ge=0)
    # Each character typed: `input text` injects one key event per character.
    type_char: float = Field(default=0.08, ge=0)
    # A key press (Back, Home, Enter, Delete, any key code) and the window transition it starts.
    key: float = Field(default=0.3, ge=0)
    # `am start`: the app's process starting and its first activity drawn, or its task brought back.
    launch: float = Field(default=1.2, ge=0)
    # `am force-stop`: the app's process killed.
    stop: float = Field(default=0.3, ge=0)
    # `pm clear`: the app stopped and its data wiped (restoring saved data as well).
    clear_data: float = Field(default=0.8, ge=0)
    # A uiautomator dump: the window tree walked, serialized and sent, after the moment it shows.
    dump: float = Field(default=0.6, ge=0)
    # A screenshot encoded and sent, after the moment it shows.
    screenshot: float = Field(default=0.3, ge=0)
    # Input dispatching waits this long for an app that does not answer before the system reports an ANR.
    anr: float = Field(default=5.0, ge=0)


class DeviceSpec(Strict):
    size: tuple[int, int] = DEFAULT_SIZE
    locale: Literal["zh", "en"] = "en"  # language of system windows (launcher, crash, permission)
    toast_duration: float = Field(default=DEFAULT_TOAST_SECONDS, gt=0)
    latency: Latency = Latency()
    durations: Durations = Durations()
    properties: dict[str, str] = {}  # getprop overrides, e.g. ro.product.model
    lock_after_actions: int | None = Field(default=None, ge=1)  # the phone locks itself once, after N
    lock_secure: bool = False  # that lock needs a PIN (`wm dismiss-keyguard` cannot lift it)


class AppInfo(Strict):
    package: str
    name: str
    launch: str  # id of the first screen
    version: str = "1.0.0"
    color: str = "#1A73E8"  # accent colour of buttons and toolbar
    currency: str = Field(default="¥", min_length=1)  # what `{price}` shows before its amount


class AppModel(Strict):
    app: AppInfo
    device: DeviceSpec = DeviceSpec()
    variables: dict[str, Scalar | Variable] = {}
    screens: list[Screen]
    dialogs: list[Dialog] = []

    def screen(self, screen_id: str) -> Screen:
        return next(s for s in self.screens if s.id == screen_id)

    def dialog(self, dialog_id: str) -> Dialog:
        return next(d for d in self.dialogs if d.id == dialog_id)

    def activity_name(self, activity: str) -> str:
        return self.app.package + activity if activity.startswith(".") else activity

    def resource_id(self, rid: str) -> str:
        return rid if (not rid or ":" in rid) else f"{self.app.package}:id/{rid}"

    def initial_variables(self) -> dict[str, Scalar]:
        return {k: (v.initial if isinstance(v, Variable) else v) for k, v in self.variables.items()}

    def persistent_variables(self) -> set[str]:
        return {k for k, v in self.variables.items() if isinstance(v, Variable) and v.persist}
