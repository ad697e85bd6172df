package dev.tidemark.conformance;

import com.fasterxml.jackson.databind.JsonNode;
import java.lang.reflect.Constructor;
import java.lang.reflect.Method;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.kafka.common.protocol.Message;

/**
 * Kafka's generated classes for one message (e.g. MetadataRequest): the data
 * class {@code MetadataRequestData} and its {@code MetadataRequestDataJsonConverter},
 * looked up by name once and kept, so a request costs no class scanning.
 */
final class MessageClasses {
    private static final String PACKAGE = "org.apache.kafka.common.message.";
    private static final ConcurrentHashMap<String, MessageClasses> CACHE = new ConcurrentHashMap<>();

    private final Constructor<?> constructor;
    private final Method read;
    private final Method write;

    private MessageClasses(String name) throws ReflectiveOperationException {
        // Names end up in Class.forName: keep them to what a schema may be called.
        if (!name.matches("[A-Z][A-Za-z0-9]*")) throw new IllegalArgumentException("invalid message name " + name);
        // Requests, responses and headers get a "Data" suffix; "data" schemas
        // (e.g. ConsumerProtocolAssignment) keep their name as it is.
        String className = PACKAGE + name + "Data";
        Class<?> data;
        try {
            data = Class.forName(className);
        } catch (ClassNotFoundException e) {
            className = PACKAGE + name;
            data = Class.forName(className);
        }
        Class<?> converter = Class.forName(className + "JsonConverter");
        constructor = data.getConstructor();
        read = converter.getMethod("read", JsonNode.class, short.class);
        // serializeRecords=true: records fields appear (as empty bytes) rather than as a size;
        // JsonFixups puts the real bytes in.
        write = converter.getMethod("write", data, short.class, boolean.class);
    }

    static MessageClasses of(String name) throws ReflectiveOperationException {
        MessageClasses found = CACHE.get(name);
        if (found == null) {
            found = new MessageClasses(name);
            CACHE.put(name, found);
        }
        return found;
    }

    Message newInstance() throws ReflectiveOperationException {
        return (Message) constructor.newInstance();
    }

    Message fromJson(JsonNode json, short version) throws ReflectiveOperationException {
        if (json == null) throw new IllegalArgumentException("missing json");
        return (Message) read.invoke(null, json, version);
    }

    JsonNode toJson(Message data, short version) throws ReflectiveOperationException {
        return (JsonNode) write.invoke(null, data, version, true);
    }
}
