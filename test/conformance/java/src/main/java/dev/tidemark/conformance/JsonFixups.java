package dev.tidemark.conformance;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.BigIntegerNode;
import com.fasterxml.jackson.databind.node.BinaryNode;
import com.fasterxml.jackson.databind.node.LongNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.ByteBuffer;
import java.util.Iterator;
import java.util.Map;
import org.apache.kafka.common.protocol.Message;

/** Changes to Kafka's JsonConverter output so that it carries everything the bytes carry. */
final class JsonFixups {
    private JsonFixups() {}

    /**
     * Kafka's converter never writes the bytes of a records field (it writes an
     * empty value or the size). Walks the message and its JSON side by side and
     * puts each records field's bytes in, base64 like any bytes field.
     * Generated data classes name their Java fields like the JSON keys.
     */
    static void addRecords(Object message, JsonNode json) throws ReflectiveOperationException {
        if (!(json instanceof ObjectNode node)) return;
        for (Field f : message.getClass().getDeclaredFields()) {
            if (Modifier.isStatic(f.getModifiers())) continue;
            JsonNode child = node.get(f.getName());
            if (child == null) continue;
            f.setAccessible(true);
            Object value = f.get(message);
            if (value == null) continue;
            // BaseRecords moved packages in Kafka 4 (record -> record.internal): match by name.
            if (f.getType().getSimpleName().equals("BaseRecords")) {
                ByteBuffer buf = ((ByteBuffer) value.getClass().getMethod("buffer").invoke(value)).duplicate();
                byte[] bytes = new byte[buf.remaining()];
                buf.get(bytes);
                node.set(f.getName(), new BinaryNode(bytes));
            } else if (value instanceof Message) {
                addRecords(value, child);
            } else if (value instanceof Iterable<?> items && child instanceof ArrayNode array) {
                // Keyed collections (ImplicitLinkedHashMultiCollection) are Iterable, not List: walk in order.
                Iterator<JsonNode> elements = array.elements();
                for (Object item : items) {
                    if (!elements.hasNext()) break;
                    JsonNode element = elements.next();
                    if (item instanceof Message) addRecords(item, element);
                }
            }
        }
    }

    /** int64 and uint32 values as decimal strings, so the reader need not parse 64-bit numbers exactly. */
    static JsonNode longsAsStrings(JsonNode json) {
        if (json instanceof LongNode || json instanceof BigIntegerNode) return new TextNode(json.asText());
        if (json instanceof ObjectNode node) {
            for (Map.Entry<String, JsonNode> e : node.properties()) e.setValue(longsAsStrings(e.getValue()));
        } else if (json instanceof ArrayNode array) {
            for (int i = 0; i < array.size(); i++) array.set(i, longsAsStrings(array.get(i)));
        }
        return json;
    }
}
