"""What a run leaves: results read and written, aggregates, JUnit, exports, plots and reports."""
