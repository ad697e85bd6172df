package dev.tidemark.assignors;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.kafka.clients.consumer.ConsumerGroupMetadata;
import org.apache.kafka.clients.consumer.ConsumerPartitionAssignor;
import org.apache.kafka.clients.consumer.ConsumerPartitionAssignor.Assignment;
import org.apache.kafka.clients.consumer.ConsumerPartitionAssignor.GroupSubscription;
import org.apache.kafka.clients.consumer.ConsumerPartitionAssignor.Subscription;
import org.apache.kafka.clients.consumer.CooperativeStickyAssignor;
import org.apache.kafka.clients.consumer.RangeAssignor;
import org.apache.kafka.clients.consumer.RoundRobinAssignor;
import org.apache.kafka.clients.consumer.StickyAssignor;
import org.apache.kafka.common.Cluster;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;

/**
 * Kafka's own assignors as an oracle for tidemark's: reads one JSON request
 * per line on stdin, answers one JSON line per request on stdout, in order.
 *
 *   {"id":1,"op":"version"}
 *   {"id":2,"op":"assign","assignor":"range","session":"s1"|null,
 *    "topics":[{"name":"t","partitions":3,"racks":[["a","b"],["b"],[]]|null}],
 *    "members":[{"memberId":"m","groupInstanceId":null,"rackId":null,"topics":["t"],
 *                "owned":[["t",0]],"generationId":-1,"userData":"<base64>"|null}]}
 *     -> {"id":2,"assignment":{"m":[["t",0],...]}} (Java's list order) or {"id":2,"error":"..."}
 *   {"id":3,"op":"userData","assignor":"sticky","partitions":[["t",0]]|null,"generation":4}
 *     -> {"id":3,"hex":"..."|null}: subscriptionUserData after onAssignment
 *
 * Members go into a HashMap in the given order, as ConsumerCoordinator puts
 * JoinGroup members, and the assignor runs through assign(Cluster,
 * GroupSubscription), the path a Java group leader takes. A request with a
 * session reuses that session's assignor instance (the sticky assignors keep
 * state between rebalances); without one, each request gets a new instance.
 */
public final class AssignorOracle {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Map<String, ConsumerPartitionAssignor> SESSIONS = new HashMap<>();

    public static void main(String[] args) throws Exception {
        // Keep stdout for answers only: anything a library prints goes to stderr.
        PrintStream out = new PrintStream(new java.io.FileOutputStream(java.io.FileDescriptor.out), false, StandardCharsets.UTF_8);
        System.setOut(System.err);
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        String line;
        while ((line = in.readLine()) != null) {
            if (line.isBlank()) continue;
            ObjectNode answer = JSON.createObjectNode();
            try {
                JsonNode req = JSON.readTree(line);
                answer.set("id", req.get("id"));
                answer.setAll(handle(req));
            } catch (Throwable t) {
                answer.put("error", t.getClass().getName() + ": " + t.getMessage());
            }
            out.println(JSON.writeValueAsString(answer));
            out.flush();
        }
    }

    private static ObjectNode handle(JsonNode req) {
        ObjectNode answer = JSON.createObjectNode();
        switch (req.get("op").asText()) {
            case "version":
                answer.put("version", kafkaVersion());
                return answer;
            case "assign":
                return assign(req);
            case "userData":
                return userData(req);
            default:
                throw new IllegalArgumentException("unknown op " + req.get("op"));
        }
    }

    /** The kafka-clients jar's own version, from the resource it ships (AppInfoParser moved in Kafka 4). */
    private static String kafkaVersion() {
        java.util.Properties props = new java.util.Properties();
        try (var in = Cluster.class.getClassLoader().getResourceAsStream("kafka/kafka-version.properties")) {
            if (in != null) props.load(in);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        return props.getProperty("version", "unknown");
    }

    private static ConsumerPartitionAssignor newAssignor(String name) {
        switch (name) {
            case "range": return new RangeAssignor();
            case "roundrobin": return new RoundRobinAssignor();
            case "sticky": return new StickyAssignor();
            case "cooperative-sticky": return new CooperativeStickyAssignor();
            default: throw new IllegalArgumentException("unknown assignor " + name);
        }
    }

    private static ConsumerPartitionAssignor assignor(JsonNode req) {
        String name = req.get("assignor").asText();
        JsonNode session = req.get("session");
        if (session == null || session.isNull()) return newAssignor(name);
        return SESSIONS.computeIfAbsent(session.asText() + "/" + name, k -> newAssignor(name));
    }

    private static ObjectNode assign(JsonNode req) {
        ConsumerPartitionAssignor assignor = assignor(req);
        GroupSubscription group = new GroupSubscription(subscriptions(req.get("members")));
        Map<String, Assignment> result = assignor.assign(cluster(req.get("topics")), group).groupAssignment();

        ObjectNode assignment = JSON.createObjectNode();
        for (Map.Entry<String, Assignment> e : result.entrySet()) {
            ArrayNode list = assignment.putArray(e.getKey());
            for (TopicPartition tp : e.getValue().partitions()) list.addArray().add(tp.topic()).add(tp.partition());
        }
        ObjectNode answer = JSON.createObjectNode();
        answer.set("assignment", assignment);
        return answer;
    }

    /** Like ConsumerProtocol's decoding of JoinGroup metadata, into a HashMap in response order. */
    private static Map<String, Subscription> subscriptions(JsonNode members) {
        Map<String, Subscription> subscriptions = new HashMap<>();
        for (JsonNode m : members) {
            List<String> topics = new ArrayList<>();
            for (JsonNode t : m.get("topics")) topics.add(t.asText());
            ByteBuffer userData = textOrNull(m, "userData") == null
                ? null
                : ByteBuffer.wrap(Base64.getDecoder().decode(m.get("userData").asText()));
            String rack = textOrNull(m, "rackId");
            Subscription subscription = new Subscription(
                topics,
                userData,
                partitions(m.get("owned")),
                m.has("generationId") ? m.get("generationId").asInt() : -1,
                rack == null || rack.isEmpty() ? Optional.empty() : Optional.of(rack));
            subscription.setGroupInstanceId(Optional.ofNullable(textOrNull(m, "groupInstanceId")));
            subscriptions.put(m.get("memberId").asText(), subscription);
        }
        return subscriptions;
    }

    /** One node per replica; a replica's rack comes from its node (null for a broker without one). */
    private static Cluster cluster(JsonNode topics) {
        List<Node> nodes = new ArrayList<>();
        List<PartitionInfo> partitions = new ArrayList<>();
        for (JsonNode t : topics) {
            String name = t.get("name").asText();
            JsonNode racks = t.get("racks");
            for (int p = 0; p < t.get("partitions").asInt(); p++) {
                List<Node> replicas = new ArrayList<>();
                if (racks == null || racks.isNull()) {
                    replicas.add(new Node(nodes.size(), "broker", 9092));
                } else {
                    for (JsonNode r : racks.get(p)) {
                        replicas.add(new Node(nodes.size() + replicas.size(), "broker", 9092, r.isNull() ? null : r.asText()));
                    }
                }
                nodes.addAll(replicas);
                Node[] array = replicas.toArray(new Node[0]);
                partitions.add(new PartitionInfo(name, p, null, array, array));
            }
        }
        return new Cluster("oracle", nodes, partitions, Collections.emptySet(), Collections.emptySet());
    }

    private static ObjectNode userData(JsonNode req) {
        ConsumerPartitionAssignor assignor = newAssignor(req.get("assignor").asText());
        JsonNode parts = req.get("partitions");
        if (parts != null && !parts.isNull()) {
            assignor.onAssignment(new Assignment(partitions(parts)),
                new ConsumerGroupMetadata("group", req.get("generation").asInt(), "member", Optional.empty()));
        }
        Set<String> topics = new HashSet<>();
        ByteBuffer bytes = assignor.subscriptionUserData(topics);
        ObjectNode answer = JSON.createObjectNode();
        if (bytes == null) {
            answer.putNull("hex");
        } else {
            StringBuilder hex = new StringBuilder();
            while (bytes.hasRemaining()) hex.append(String.format("%02x", bytes.get()));
            answer.put("hex", hex.toString());
        }
        return answer;
    }

    private static List<TopicPartition> partitions(JsonNode list) {
        List<TopicPartition> out = new ArrayList<>();
        if (list == null || list.isNull()) return out;
        for (JsonNode tp : list) out.add(new TopicPartition(tp.get(0).asText(), tp.get(1).asInt()));
        return out;
    }

    private static String textOrNull(JsonNode node, String field) {
        JsonNode v = node.get(field);
        return v == null || v.isNull() ? null : v.asText();
    }
}
