"""Research on sliding-block puzzles (after N. Bickford, "Sliding Block Puzzles, Part 3" and "Part 4 of 3",
*Random* (blog), 2012 and 2013): every board of a size, the hardest puzzle of every class of piece sizes
(``hardest``), its costs told before the work, its runs on local processes or a dask cluster, the two-piece
search, and the evolver. Built on the ``slide`` type and the move searches."""
