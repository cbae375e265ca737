package dev.fleet.cli;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * A plain left-aligned text table: columns as wide as their widest cell, two spaces apart. Cells
 * are made {@link Printable}: they often hold what other processes and tools wrote.
 */
final class Table {

    private final List<String[]> rows = new ArrayList<>();

    Table(String... headers) {
        rows.add(headers);
    }

    Table row(Object... cells) {
        String[] texts = new String[cells.length];
        for (int i = 0; i < cells.length; i++) {
            texts[i] = Objects.toString(Printable.of(cells[i]), "-");
        }
        rows.add(texts);
        return this;
    }

    String render() {
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
