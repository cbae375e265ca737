package dev.fleet.domain.host;

/**
 * What a look may have missed (the contract, §14): missing evidence never proves a client gone, so it keeps a
 * server from being called {@code orphaned} and a process from being called a {@code leftover}.
 *
 * @param unreadFiles how many processes that may feed a server had open files the look could not read (another
 *     user's, or past the look's bound): one of them may hold a server's stdin
 * @param hiddenProcesses whether the table may leave out live processes ({@link HostSnapshot#partial}): a parent
 *     or a holder that is not in it may be one of them
 */
record Unseen(long unreadFiles, boolean hiddenProcesses) {

    /** Whether the holder of a channel may be a process whose open files the look did not read. */
    boolean holders() {
        return unreadFiles > 0 || hiddenProcesses;
    }

    /**
     * Whether the parent of {@code process}, not in the table, may yet be live: hidden from this reader. Init's pid
     * is in the process's own stat, seen or not, so a process under init is never thought to have a hidden parent.
     */
    boolean mayHideParentOf(HostProcess process, ProcessForest forest) {
        return hiddenProcesses && process.parentPid() > ProcessForest.INIT && process.parentPid() != process.pid()
                && forest.parent(process) == null;
    }

    /** Why a server with no client seen may still have one, for the warning that names it. */
    String why() {
        String files = "the open files of " + unreadFiles + (unreadFiles == 1 ? " process" : " processes")
                + " could not be read (another user's, or past the look's bound)";
        String hidden = "/proc hides other users' processes from this look (hidepid), and its parent or the holder "
                + "of its stdin may be one of them";
        if (!hiddenProcesses) {
            return files;
        }
        return unreadFiles > 0 ? hidden + ", and " + files : hidden;
    }
}
