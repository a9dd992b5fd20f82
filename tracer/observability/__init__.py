"""What a compile reports: CompilationMetrics and timed phases (`metrics`), Chrome trace events
(`events`), the structured log tlparse reads (`trace_log`), human-readable logs by topic (`logs`)
and which compile is running (`compile_context`)."""
