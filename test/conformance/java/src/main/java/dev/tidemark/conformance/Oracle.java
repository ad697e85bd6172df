package dev.tidemark.conformance;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.lang.reflect.InvocationTargetException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.Properties;
import org.apache.kafka.common.protocol.ByteBufferAccessor;
import org.apache.kafka.common.protocol.Message;
import org.apache.kafka.common.protocol.ObjectSerializationCache;

/**
 * Kafka's own serializers as a test oracle, one long-lived JVM per Kafka
 * version, speaking line-delimited JSON on stdin/stdout:
 *
 * <pre>
 * {"id":1,"op":"encode","message":"MetadataRequest","version":12,"json":{...}} -> {"id":1,"hex":"..."}
 * {"id":2,"op":"decode","message":"MetadataRequest","version":12,"hex":"..."}  -> {"id":2,"json":{...}}
 * {"id":3,"op":"version"}                                                      -> {"id":3,"version":"4.4.0"}
 * {"id":4,"op":"errors"}  -> {"id":4,"errors":[{"code":-1,"name":"UNKNOWN_SERVER_ERROR","retriable":false},...]}
 * </pre>
 *
 * A failure answers {"id":..,"error":"..."}; the process keeps serving. JSON is
 * Kafka's generated JsonConverter form, with two changes on the way out (see
 * {@link JsonFixups}): int64/uint32 values are strings, so that no reader has
 * to parse 64-bit numbers, and records fields carry their bytes.
 */
public final class Oracle {
    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final HexFormat HEX = HexFormat.of();

    private Oracle() {}

    public static void main(String[] args) throws Exception {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        BufferedWriter out = new BufferedWriter(new OutputStreamWriter(System.out, StandardCharsets.UTF_8), 1 << 16);
        String line;
        while ((line = in.readLine()) != null) {
            if (line.isBlank()) continue;
            out.write(MAPPER.writeValueAsString(answer(line)));
            out.write('\n');
            // Requests are pipelined: flush only once the input runs dry, not per answer.
            if (!in.ready()) out.flush();
        }
        out.flush();
    }

    private static ObjectNode answer(String line) {
        ObjectNode reply = MAPPER.createObjectNode();
        try {
            JsonNode request = MAPPER.readTree(line);
            reply.set("id", request.get("id"));
            String op = request.path("op").asText();
            switch (op) {
                case "encode" -> reply.put("hex", encode(request));
                case "decode" -> reply.set("json", decode(request));
                case "version" -> reply.put("version", kafkaVersion());
                case "errors" -> reply.set("errors", errors());
                default -> throw new IllegalArgumentException("unknown op " + op);
            }
        } catch (Throwable t) {
            reply.put("error", describe(t));
        }
        return reply;
    }

    /** Kafka's error table: code, name and whether its exception is retriable. */
    private static com.fasterxml.jackson.databind.node.ArrayNode errors() {
        com.fasterxml.jackson.databind.node.ArrayNode list = MAPPER.createArrayNode();
        for (org.apache.kafka.common.protocol.Errors e : org.apache.kafka.common.protocol.Errors.values()) {
            ObjectNode row = list.addObject();
            row.put("code", e.code());
            row.put("name", e.name());
            row.put("retriable", e.exception() instanceof org.apache.kafka.common.errors.RetriableException);
        }
        return list;
    }

    private static String encode(JsonNode request) throws Exception {
        MessageClasses classes = MessageClasses.of(request.path("message").asText());
        short version = version(request);
        Message data = classes.fromJson(request.get("json"), version);
        ObjectSerializationCache cache = new ObjectSerializationCache();
        int size = data.size(cache, version);
        ByteBuffer buf = ByteBuffer.allocate(size);
        data.write(new ByteBufferAccessor(buf), cache, version);
        if (buf.position() != size) {
            throw new IllegalStateException("Kafka wrote " + buf.position() + " bytes but sized " + size);
        }
        return HEX.formatHex(buf.array());
    }

    private static JsonNode decode(JsonNode request) throws Exception {
        MessageClasses classes = MessageClasses.of(request.path("message").asText());
        short version = version(request);
        ByteBuffer buf = ByteBuffer.wrap(HEX.parseHex(request.path("hex").asText()));
        Message data = classes.newInstance();
        data.read(new ByteBufferAccessor(buf), version);
        if (buf.hasRemaining()) {
            throw new IllegalStateException(buf.remaining() + " bytes left after reading the message");
        }
        JsonNode json = classes.toJson(data, version);
        JsonFixups.addRecords(data, json);
        return JsonFixups.longsAsStrings(json);
    }

    /** The kafka-clients jar's own version (AppInfoParser moved packages in Kafka 4, the resource did not). */
    private static String kafkaVersion() throws java.io.IOException {
        Properties props = new Properties();
        try (var in = Message.class.getClassLoader().getResourceAsStream("kafka/kafka-version.properties")) {
            if (in != null) props.load(in);
        }
        return props.getProperty("version", "unknown");
    }

    private static short version(JsonNode request) {
        JsonNode v = request.get("version");
        if (v == null || !v.canConvertToInt()) throw new IllegalArgumentException("missing version");
        return (short) v.asInt();
    }

    private static String describe(Throwable t) {
        while (t instanceof InvocationTargetException && t.getCause() != null) t = t.getCause();
        String message = t.getMessage();
        return t.getClass().getSimpleName() + (message == null ? "" : ": " + message);
    }
}
