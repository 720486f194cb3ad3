-- The local search index: BM25 over weighted fields (weights are given at query time).
-- rowid is search_pages.id; the trigger keeps the two in step when pages are removed.
CREATE VIRTUAL TABLE `search_fts` USING fts5(
	title,
	headings,
	body,
	url_tokens,
	anchors,
	tokenize = 'porter unicode61 remove_diacritics 2'
);
--> statement-breakpoint
CREATE TRIGGER `search_pages_fts_delete` AFTER DELETE ON `search_pages` BEGIN
	DELETE FROM `search_fts` WHERE rowid = old.id;
END;
