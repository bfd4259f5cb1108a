"""tools/sweep's library: sweep files (spec), their runs (plan)."""
