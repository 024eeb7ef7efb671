/**
 * Writes that need not wait for the journal. A write with `UNJOURNALED` is answered once the
 * database has applied it, before its disk flush, as MongoDB answers `j: false`; it still reaches
 * the journal in the order it was made, so the flush of any later journaled write carries it to
 * disk too (the embedded engine journals in order; so does MongoDB's single journal, and a
 * majority write concern replicates the oplog up to it).
 *
 * The rule for using it: either the row need only live as long as the process that wrote it (a
 * lease), or the caller makes a journaled write after it before anyone is told the work is done —
 * a page save's row and the ids it takes, covered by the save's change-log row. A crash before that
 * later write loses the unjournaled one with it, which is what an unanswered request may lose.
 */
export const UNJOURNALED = { writeConcern: { w: 1, j: false } } as const;
