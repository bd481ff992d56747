"""Spec text shared by the tests that run the food app through the plugin: the app block and the
delivery-time feature (its dialog), to which each test adds what it is about."""

FOOD_APP_BLOCK = """\
app:
  name: 麦当劳
  package: com.mcdonalds.gma.cn
  virtual: food/app.yaml
features:
"""

DELIVERY_TIME = """\
  - name: delivery time
    goal: 选择送达时间：在弹窗中选择预约送餐并确定
    done_when:
      - visible: 送达时间：预约送餐
      - not_visible: 请选择您的送达时间
"""

# The notes app, and its seeded crash (关于随手记 -> 检查更新) as a feature; an item out of budget at once.
NOTES_APP_BLOCK = """\
app:
  name: 随手记
  package: com.example.notes
  virtual: notes/app.yaml
features:
"""

CHECK_FOR_UPDATES = """\
  - name: check for updates
    goal: 关于随手记：检查更新
    done_when:
      - visible: 已是最新版本
"""

UNREACHABLE = """\
  - name: unreachable
    goal: 登录
    max_steps: 2
    done_when:
      - visible: 不存在的文字
"""
