package dev.fleet.clientconfig;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Where the command a chain of exec wrappers runs begins, as their own manuals read their words. */
class ExecWrappersTest {

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(delimiter = '|', value = {
        "srv --port 1 | srv --port 1",
        "env A=1 B=2 srv | srv",
        "/usr/bin/env -u HOME -- python3 s.py | python3 s.py",
        "env - PATH=/bin srv | srv",
        "env -- A=1 srv | srv",
        "nohup nice -n 5 env A=1 srv | srv",
        "nice -5 srv | srv",
        "stdbuf -oL setsid srv | srv",
        "taskset -c 0,1 srv | srv",
        "taskset -- 0x3 srv | srv",
        "chrt -f 10 srv | srv",
        "chrt 10 srv | srv",
        "chrt --other srv --port 1 | srv --port 1",
        "chrt -b srv 5 | srv 5",
        "ionice -c3 srv | srv",
        "ionice -c 2 -n 7 -t srv | srv",
        "taskset -c 0 nice -n 5 ionice -c 3 chrt -b 0 srv | srv",
    })
    void findsTheCommandPastEveryWrapper(String line, String command) {
        List<String> words = Arrays.asList(line.split(" "));
        assertEquals(command, String.join(" ", words.subList(ExecWrappers.commandAt(words), words.size())));
    }

    /** 0: the words are the command as they are (no wrapper, nothing run, or a wrapper acting on a running process). */
    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "/srv/envoy --x",
        "env A=1",
        "env -S python3 -u /srv/s",
        "taskset -p 0x1 1234",
        "taskset -pc 0,1 1234",
        "taskset -cp 0,1 1234",
        "taskset -ap 0x1 1234",
        "taskset --pid 0x1 1234",
        "chrt -p 10 1234",
        "chrt -pf 10 1234",
        "chrt -m",
        "chrt --max",
        "ionice -p 123",
        "ionice -tp 123",
        "ionice -p123",
        "ionice --pid=123",
        "nice",
        "taskset 0x1",
    })
    void runsNothingOfItsOwn(String line) {
        assertEquals(0, ExecWrappers.commandAt(Arrays.asList(line.split(" "))));
    }
}
