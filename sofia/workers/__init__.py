"""The worker pool behind `sf mcp`: provider calls in warm loky processes, with deadlines,
cancellation, crash recovery and recycling (`pool`), and what runs inside a worker (`worker`)."""
