// Allure 3 reads this when `allure generate` runs from this folder: the report's tree groups the items
// by app (the Allure epic) and then by feature, instead of by file path. Copy it beside your suites.
export default {
  name: "pytest_fairy",
  plugins: {
    awesome: { options: { groupBy: ["epic", "feature"] } },
  },
};
