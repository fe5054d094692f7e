// A file without annotations: a build plugin still gets a header-only output for it.
// @unchecked because this comment merely starts like an annotation.
func helper() -> Int { 42 }
