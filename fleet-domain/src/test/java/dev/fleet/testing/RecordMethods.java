package dev.fleet.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import java.lang.reflect.Constructor;
import java.lang.reflect.RecordComponent;
import java.util.Arrays;
import java.util.Map;

/**
 * Holds a record's written-out {@code equals} and {@code hashCode} to what the record's own would be:
 * equal exactly when every component is, whatever the component. A component added later and left out
 * of the written methods fails it. The records write them out for a cold JVM's sake (docs/PERFORMANCE.md).
 */
public final class RecordMethods {

    /** Two different values of each component type this project's records use. */
    private static final Map<Class<?>, Object[]> VALUES = Map.of(
            String.class, new Object[] {"a", "b"},
            long.class, new Object[] {1L, 2L},
            Long.class, new Object[] {1L, 2L},
            int.class, new Object[] {1, 2},
            Integer.class, new Object[] {1, 2},
            boolean.class, new Object[] {false, true});

    private RecordMethods() {
    }

    /** Fails unless {@code type}'s equals and hashCode tell apart a change of any one component, null included. */
    public static void assertCoverEveryComponent(Class<? extends Record> type) {
        RecordComponent[] components = type.getRecordComponents();
        Object[] base = new Object[components.length];
        for (int i = 0; i < components.length; i++) {
            base[i] = values(components[i])[0];
        }
        Object record = construct(type, base);
        Object same = construct(type, base.clone());
        assertEquals(record, same, type.getSimpleName() + ": equal components, equal records");
        assertEquals(record.hashCode(), same.hashCode(), type.getSimpleName() + ": equal records, equal hashes");
        for (int i = 0; i < components.length; i++) {
            Object[] changed = base.clone();
            changed[i] = values(components[i])[1];
            assertNotEquals(record, construct(type, changed), type.getSimpleName() + " ignores " + components[i].getName());
            if (!components[i].getType().isPrimitive()) {
                Object[] nulled = base.clone();
                nulled[i] = null;
                Object withNull = construct(type, nulled);
                assertNotEquals(record, withNull, type.getSimpleName() + " ignores a null " + components[i].getName());
                assertNotEquals(withNull, record, type.getSimpleName() + " ignores a null " + components[i].getName());
                assertEquals(withNull, construct(type, nulled.clone()));
                assertEquals(withNull.hashCode(), construct(type, nulled.clone()).hashCode());
            }
        }
        assertNotEquals(record, null);
        assertNotEquals(record, new Object());
    }

    private static Object[] values(RecordComponent component) {
        Object[] values = VALUES.get(component.getType());
        if (values == null) {
            throw new IllegalArgumentException("no sample values for " + component.getType() + " (" + component + ")");
        }
        return values;
    }

    private static Object construct(Class<? extends Record> type, Object[] arguments) {
        Class<?>[] types = Arrays.stream(type.getRecordComponents()).map(RecordComponent::getType).toArray(Class<?>[]::new);
        try {
            Constructor<? extends Record> canonical = type.getDeclaredConstructor(types);
            canonical.setAccessible(true);
            return canonical.newInstance(arguments);
        } catch (ReflectiveOperationException e) {
            throw new AssertionError("cannot construct " + type + " from " + Arrays.toString(arguments), e);
        }
    }
}
