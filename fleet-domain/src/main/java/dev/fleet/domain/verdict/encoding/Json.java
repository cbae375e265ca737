package dev.fleet.domain.verdict.encoding;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Function;

/**
 * A JSON value, as the domain builds its documents: an object's fields keep their order, and numbers
 * are integers only ({@link Integer} or {@link Long}, as the contract's fields are). {@link
 * CanonicalJson} encodes it; {@link #plain()} gives the tree of ordered maps and lists that MCP
 * structured content is made of.
 */
public sealed interface Json permits Json.Obj, Json.Arr, Json.Str, Json.Num, Json.Bool, Json.Null {

    Null NULL = new Null();

    /**
     * This value as plain Java: ordered maps, unmodifiable lists, strings, integers, booleans and nulls
     * (an object and an array say it themselves).
     */
    default Object plain() {
        if (this instanceof Str text) {
            return text.value();
        }
        if (this instanceof Num number) {
            return number.value();
        }
        return this instanceof Bool bool ? bool.value() : null;
    }

    record Field(String name, Json value) {
        public Field {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(value, "value");
        }
    }

    record Obj(List<Field> fields) implements Json {
        public Obj {
            fields = List.copyOf(fields);
        }

        /** This object without the fields named {@code names}, here and in every object inside it. */
        public Obj withoutEverywhere(Set<String> names) {
            List<Field> kept = new ArrayList<>();
            for (Field field : fields) {
                if (!names.contains(field.name())) {
                    kept.add(new Field(field.name(), without(field.value(), names)));
                }
            }
            return new Obj(kept);
        }

        private static Json without(Json value, Set<String> names) {
            if (value instanceof Obj object) {
                return object.withoutEverywhere(names);
            }
            if (value instanceof Arr array) {
                return new Arr(array.items().stream().map(item -> without(item, names)).toList());
            }
            return value;
        }

        @Override
        public Map<String, Object> plain() {
            Map<String, Object> map = new LinkedHashMap<>();
            fields.forEach(field -> map.put(field.name(), field.value().plain()));
            return map;
        }
    }

    record Arr(List<Json> items) implements Json {
        public Arr {
            items = List.copyOf(items);
        }

        @Override
        public List<Object> plain() {
            List<Object> list = new ArrayList<>(items.size());
            items.forEach(item -> list.add(item.plain()));
            return Collections.unmodifiableList(list);
        }
    }

    record Str(String value) implements Json {
        public Str {
            Objects.requireNonNull(value, "value");
        }
    }

    /** An integer: {@link Integer} or {@link Long}, kept as given so the plain tree holds the same type. */
    record Num(Number value) implements Json {
        public Num {
            if (!(value instanceof Integer || value instanceof Long)) {
                throw new IllegalArgumentException("not an integer of the contract: " + value);
            }
        }
    }

    record Bool(boolean value) implements Json {
    }

    record Null() implements Json {
    }

    /** A string, or null. */
    static Json of(String text) {
        return text == null ? NULL : new Str(text);
    }

    /** A boolean, or null. */
    static Json of(Boolean value) {
        return value == null ? NULL : new Bool(value);
    }

    static Json of(int value) {
        return new Num(value);
    }

    static Json of(long value) {
        return new Num(value);
    }

    /** Each item of {@code items}, as {@code each} makes it. */
    static <T> Arr array(List<T> items, Function<? super T, ? extends Json> each) {
        List<Json> values = new ArrayList<>(items.size());
        items.forEach(item -> values.add(each.apply(item)));
        return new Arr(values);
    }

    /** A plain tree (ordered maps with string keys, lists, strings, integers, booleans, nulls) as a value. */
    static Json fromPlain(Object value) {
        if (value == null) {
            return NULL;
        } else if (value instanceof Json json) {
            return json;
        } else if (value instanceof String text) {
            return new Str(text);
        } else if (value instanceof Boolean bool) {
            return new Bool(bool);
        } else if (value instanceof Integer || value instanceof Long) {
            return new Num((Number) value);
        } else if (value instanceof Map<?, ?> map) {
            Members members = new Members();
            map.forEach((name, item) -> members.put((String) name, fromPlain(item)));
            return members.build();
        } else if (value instanceof List<?> list) {
            return array(list, Json::fromPlain);
        }
        throw new IllegalArgumentException("not part of a canonical tree: " + value.getClass().getName());
    }

    /** An object's fields, named one by one in their order. */
    final class Members {
        private final List<Field> fields = new ArrayList<>();

        public Members put(String name, Json value) {
            fields.add(new Field(name, value));
            return this;
        }

        public Members put(String name, String text) {
            return put(name, of(text));
        }

        public Members put(String name, Boolean value) {
            return put(name, of(value));
        }

        public Members put(String name, int value) {
            return put(name, of(value));
        }

        public Members put(String name, long value) {
            return put(name, of(value));
        }

        public Obj build() {
            return new Obj(fields);
        }
    }
}
