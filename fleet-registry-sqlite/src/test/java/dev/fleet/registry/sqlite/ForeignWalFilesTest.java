package dev.fleet.registry.sqlite;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Whether the owner could open the files another user's read would create: by their mode, and in a
 * sticky shared folder by the kernel's {@code fs.protected_regular}, which refuses them whatever their
 * mode, to root too. (Run for real as other users in the CLI's RegistryPermissionsIT.)
 */
class ForeignWalFilesTest {

    private static final int SHARED_GROUP = 50;

    @ParameterizedTest(name = "{0}: refused {8}")
    @CsvSource(delimiter = '|', value = {
        // case                                         | reader | owner | mode | group | folder mode | folder owner | protected | refused
        "root reads: SQLite hands the files over        | 0      | 1000  | 0644 | 50    | 01777       | 0            | 2         | false",
        "the owner reads                                | 1000   | 1000  | 0644 | 50    | 01777       | 0            | 2         | false",
        "a plain shared folder, mode 0644               | 1001   | 1000  | 0644 | 1001  | 0777        | 0            | 0         | true",
        "a plain shared folder, group 0664, its group   | 1001   | 1000  | 0664 | 50    | 0777        | 0            | 0         | false",
        "a plain shared folder, group 0664, another     | 1001   | 1000  | 0664 | 1001  | 0777        | 0            | 0         | true",
        "a plain shared folder, 0666                    | 1001   | 1000  | 0666 | 1001  | 0777        | 0            | 0         | false",
        "a plain shared folder, owned by root           | 1001   | 0     | 0644 | 1001  | 0777        | 0            | 0         | false",
        "/tmp, protected_regular=1, 0666                | 1001   | 1000  | 0666 | 1001  | 01777       | 0            | 1         | true",
        "/tmp, protected_regular=1, owned by root       | 1001   | 0     | 0644 | 1001  | 01777       | 0            | 1         | true",
        "/tmp, protected_regular=0, owned by root       | 1001   | 0     | 0644 | 1001  | 01777       | 0            | 0         | false",
        "/tmp, protected_regular=0, 0644                | 1001   | 1000  | 0644 | 1001  | 01777       | 0            | 0         | true",
        "a sticky folder the reader owns                | 1001   | 1000  | 0666 | 1001  | 01777       | 1001         | 2         | false",
        "a sticky group folder, protected_regular=1     | 1001   | 1000  | 0664 | 50    | 03770       | 0            | 1         | false",
        "a sticky group folder, protected_regular=2     | 1001   | 1000  | 0664 | 50    | 03770       | 0            | 2         | true",
    })
    void theOwnerCouldOpenWhatTheReadWouldCreate(String description, int reader, int owner, String mode, int group,
            String folderMode, int folderOwner, int protectedRegular, boolean refused) {
        ForeignWalFiles.Created created = new ForeignWalFiles.Created(reader, owner, Integer.parseInt(mode, 8), group,
                SHARED_GROUP, Integer.parseInt(folderMode, 8), folderOwner, protectedRegular);
        assertEquals(refused, created.ownerCannotWrite(), description);
    }
}
