package dev.fleet.cli.text;

import dev.fleet.domain.Printable;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * A plain left-aligned text table: columns as wide as their widest cell, two spaces apart. Cells
 * are made {@link Printable}: they often hold what other processes and tools wrote.
 */
public final class Table {

    private final List<String[]> rows = new ArrayList<>();
    private int[] limits;

    public Table(String... headers) {
        rows.add(headers);
    }

    /**
     * The widest each column may be; a longer cell is cut and ends in {@code …}. 0 leaves a column
     * unlimited. A table of outside text otherwise grows as wide as its longest value.
     */
    public Table limit(int... widths) {
        this.limits = widths.clone();
        return this;
    }

    public Table row(Object... cells) {
        String[] texts = new String[cells.length];
        for (int i = 0; i < cells.length; i++) {
            texts[i] = cut(Objects.toString(Printable.of(cells[i]), "-"), limits == null ? 0 : limits[i]);
        }
        rows.add(texts);
        return this;
    }

    private static String cut(String text, int limit) {
        return limit > 0 && text.length() > limit ? text.substring(0, limit - 1) + "…" : text;
    }

    public String render() {
        int columns = rows.get(0).length;
        int[] widths = new int[columns];
        for (String[] row : rows) {
            for (int i = 0; i < columns; i++) {
                widths[i] = Math.max(widths[i], row[i].length());
            }
        }
        StringBuilder text = new StringBuilder();
        for (String[] row : rows) {
            StringBuilder line = new StringBuilder();
            for (int i = 0; i < columns; i++) {
                line.append(i == columns - 1 ? row[i] : String.format("%-" + widths[i] + "s  ", row[i]));
            }
            text.append(line.toString().stripTrailing()).append(System.lineSeparator());
        }
        return text.toString();
    }
}
