"""Reports: what a run leaves behind for people and for the next run.

Owns: the session store on disk (steps, screenshots, trees, results, written as the run goes), the Allure
reporter and environment, the feature-tree picture and the picture of a diff between two trees. All are
`StepSink`s or helpers of one.
May import: `errors`, `spec`, `devices`, `perception`, `explore`, `brain`.
"""
