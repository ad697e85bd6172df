package dev.tidemark.admin;

import com.fasterxml.jackson.databind.JsonNode;
import dev.tidemark.harness.JsonLines;
import java.util.*;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.clients.admin.*;
import org.apache.kafka.common.ElectionType;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.TopicPartitionInfo;
import org.apache.kafka.common.config.ConfigResource;

/**
 * Kafka's own AdminClient, driven by tidemark's admin integration tests over JsonLines: one JVM per test file,
 * one Admin per bootstrap address. Answers are plain JSON (int64s as strings) that the tests compare with
 * tidemark's results; a failure answers with the exception's class and message (the broker's own message).
 */
public final class AdminHelper {
  private static final Map<String, Admin> ADMINS = new HashMap<>();

  public static void main(String[] args) throws Exception {
    JsonLines.serve(AdminHelper::run, () -> {
      for (Admin a : ADMINS.values()) a.close();
    });
  }

  private static synchronized Admin admin(String bootstrap) {
    return ADMINS.computeIfAbsent(bootstrap, b -> {
      Properties p = new Properties();
      p.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, b);
      p.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, "60000");
      return Admin.create(p);
    });
  }

  private static Object run(JsonNode cmd) throws Exception {
    if (cmd.get("op").asText().equals("version")) return "ready";
    Admin admin = admin(cmd.path("bootstrap").asText());
    try {
      return dispatch(admin, cmd);
    } catch (ExecutionException e) {
      // The typed failure as the Java client reports it: class name and the broker's message.
      Map<String, Object> failure = new LinkedHashMap<>();
      failure.put("exception", e.getCause().getClass().getSimpleName());
      failure.put("message", e.getCause().getMessage());
      return Map.of("failure", failure);
    }
  }

  private static Object dispatch(Admin admin, JsonNode cmd) throws Exception {
    switch (cmd.get("op").asText()) {
      case "describeConfigs":
        return describeConfigs(admin, cmd);
      case "incrementalAlterConfigs":
        return incrementalAlterConfigs(admin, cmd);
      case "createPartitions":
        return createPartitions(admin, cmd);
      case "describeTopic":
        return describeTopic(admin, cmd.get("topic").asText());
      case "deleteRecords":
        return deleteRecords(admin, cmd);
      case "describeCluster":
        return describeCluster(admin);
      case "describeLogDirs":
        return describeLogDirs(admin, cmd);
      case "electLeaders":
        return electLeaders(admin, cmd);
      case "alterPartitionReassignments":
        return alterPartitionReassignments(admin, cmd);
      case "listPartitionReassignments":
        return listPartitionReassignments(admin);
      case "describeConsumerGroup":
        return describeConsumerGroup(admin, cmd.get("group").asText(), cmd.path("includeAuthorizedOperations").asBoolean(false));
      case "describeProducers":
        return describeProducers(admin, cmd);
      case "describeTransactions":
        return describeTransactions(admin, cmd);
      case "listTransactions":
        return listTransactions(admin);
      default:
        throw new IllegalArgumentException("unknown op " + cmd.get("op"));
    }
  }

  private static ConfigResource resource(JsonNode r) {
    String type = r.get("type").asText();
    ConfigResource.Type t =
        switch (type) {
          case "topic" -> ConfigResource.Type.TOPIC;
          case "broker" -> ConfigResource.Type.BROKER;
          case "broker-logger" -> ConfigResource.Type.BROKER_LOGGER;
          case "group" -> ConfigResource.Type.GROUP;
          case "client-metrics" -> ConfigResource.Type.CLIENT_METRICS;
          default -> throw new IllegalArgumentException("unknown resource type " + type);
        };
    return new ConfigResource(t, r.get("name").asText());
  }

  private static Object describeConfigs(Admin admin, JsonNode cmd) throws Exception {
    List<ConfigResource> resources = new ArrayList<>();
    for (JsonNode r : cmd.get("resources")) resources.add(resource(r));
    DescribeConfigsOptions options =
        new DescribeConfigsOptions()
            .includeSynonyms(cmd.path("includeSynonyms").asBoolean(false))
            .includeDocumentation(cmd.path("includeDocumentation").asBoolean(false));
    Map<ConfigResource, Config> all = admin.describeConfigs(resources, options).all().get();
    List<Object> out = new ArrayList<>();
    for (ConfigResource r : resources) {
      List<Object> configs = new ArrayList<>();
      for (ConfigEntry e : all.get(r).entries()) {
        Map<String, Object> c = new LinkedHashMap<>();
        c.put("name", e.name());
        c.put("value", e.value());
        c.put("source", e.source().name());
        c.put("isDefault", e.isDefault());
        c.put("isSensitive", e.isSensitive());
        c.put("isReadOnly", e.isReadOnly());
        c.put("type", e.type().name());
        c.put("documentation", e.documentation());
        List<Object> synonyms = new ArrayList<>();
        for (ConfigEntry.ConfigSynonym s : e.synonyms()) {
          Map<String, Object> m = new LinkedHashMap<>();
          m.put("name", s.name());
          m.put("value", s.value());
          m.put("source", s.source().name());
          synonyms.add(m);
        }
        c.put("synonyms", synonyms);
        configs.add(c);
      }
      out.add(Map.of("resource", Map.of("type", cmd.get("resources").get(out.size()).get("type").asText(), "name", r.name()), "configs", configs));
    }
    return out;
  }

  private static Object incrementalAlterConfigs(Admin admin, JsonNode cmd) throws Exception {
    Map<ConfigResource, Collection<AlterConfigOp>> changes = new LinkedHashMap<>();
    for (JsonNode c : cmd.get("changes")) {
      List<AlterConfigOp> ops = new ArrayList<>();
      for (JsonNode op : c.get("changes")) {
        AlterConfigOp.OpType type = AlterConfigOp.OpType.valueOf(op.get("op").asText().toUpperCase(Locale.ROOT));
        String value = op.hasNonNull("value") ? op.get("value").asText() : null;
        ops.add(new AlterConfigOp(new ConfigEntry(op.get("name").asText(), value), type));
      }
      changes.put(resource(c.get("resource")), ops);
    }
    AlterConfigsOptions options = new AlterConfigsOptions().validateOnly(cmd.path("validateOnly").asBoolean(false));
    admin.incrementalAlterConfigs(changes, options).all().get();
    return "ok";
  }

  private static Object createPartitions(Admin admin, JsonNode cmd) throws Exception {
    int count = cmd.get("count").asInt();
    CreatePartitionsOptions options = new CreatePartitionsOptions().validateOnly(cmd.path("validateOnly").asBoolean(false));
    admin.createPartitions(Map.of(cmd.get("topic").asText(), NewPartitions.increaseTo(count)), options).all().get();
    return "ok";
  }

  private static Object describeTopic(Admin admin, String topic) throws Exception {
    TopicDescription d = admin.describeTopics(List.of(topic)).allTopicNames().get().get(topic);
    List<Object> partitions = new ArrayList<>();
    for (TopicPartitionInfo p : d.partitions()) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("partition", p.partition());
      m.put("leader", p.leader() == null ? -1 : p.leader().id());
      m.put("replicas", p.replicas().stream().map(Node::id).toList());
      partitions.add(m);
    }
    return partitions;
  }

  private static Object deleteRecords(Admin admin, JsonNode cmd) throws Exception {
    Map<TopicPartition, RecordsToDelete> targets = new LinkedHashMap<>();
    for (JsonNode t : cmd.get("targets")) {
      targets.put(
          new TopicPartition(t.get("topic").asText(), t.get("partition").asInt()),
          RecordsToDelete.beforeOffset(Long.parseLong(t.get("before").asText())));
    }
    List<Object> out = new ArrayList<>();
    for (Map.Entry<TopicPartition, KafkaFuture<DeletedRecords>> e : admin.deleteRecords(targets).lowWatermarks().entrySet()) {
      out.add(Map.of("topic", e.getKey().topic(), "partition", e.getKey().partition(), "lowWatermark", String.valueOf(e.getValue().get().lowWatermark())));
    }
    return out;
  }

  private static Object describeCluster(Admin admin) throws Exception {
    DescribeClusterResult r = admin.describeCluster(new DescribeClusterOptions().includeAuthorizedOperations(true));
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("clusterId", r.clusterId().get());
    out.put("controller", r.controller().get() == null ? -1 : r.controller().get().id());
    List<Object> nodes = new ArrayList<>();
    for (Node n : r.nodes().get()) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("id", n.id());
      m.put("host", n.host());
      m.put("port", n.port());
      m.put("rack", n.rack());
      nodes.add(m);
    }
    out.put("brokers", nodes);
    Set<?> ops = r.authorizedOperations().get();
    out.put("authorizedOperations", ops == null ? null : ops.stream().map(Object::toString).sorted().toList());
    return out;
  }

  private static Object describeLogDirs(Admin admin, JsonNode cmd) throws Exception {
    List<Integer> brokers = new ArrayList<>();
    for (JsonNode b : cmd.get("brokers")) brokers.add(b.asInt());
    Map<Integer, Map<String, LogDirDescription>> all = admin.describeLogDirs(brokers).allDescriptions().get();
    List<Object> out = new ArrayList<>();
    for (Integer b : brokers) {
      for (Map.Entry<String, LogDirDescription> d : all.get(b).entrySet()) {
        List<Object> replicas = new ArrayList<>();
        for (Map.Entry<TopicPartition, ReplicaInfo> r : d.getValue().replicaInfos().entrySet()) {
          Map<String, Object> m = new LinkedHashMap<>();
          m.put("topic", r.getKey().topic());
          m.put("partition", r.getKey().partition());
          m.put("size", String.valueOf(r.getValue().size()));
          m.put("offsetLag", String.valueOf(r.getValue().offsetLag()));
          m.put("isFuture", r.getValue().isFuture());
          replicas.add(m);
        }
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("broker", b);
        m.put("path", d.getKey());
        m.put("error", d.getValue().error() == null ? null : d.getValue().error().getClass().getSimpleName());
        m.put("replicas", replicas);
        out.add(m);
      }
    }
    return out;
  }

  private static Object electLeaders(Admin admin, JsonNode cmd) throws Exception {
    Set<TopicPartition> partitions = new HashSet<>();
    for (JsonNode p : cmd.get("partitions")) partitions.add(new TopicPartition(p.get("topic").asText(), p.get("partition").asInt()));
    ElectionType type = cmd.get("type").asText().equals("unclean") ? ElectionType.UNCLEAN : ElectionType.PREFERRED;
    Map<TopicPartition, Optional<Throwable>> result = admin.electLeaders(type, partitions).partitions().get();
    List<Object> out = new ArrayList<>();
    for (Map.Entry<TopicPartition, Optional<Throwable>> e : result.entrySet()) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("topic", e.getKey().topic());
      m.put("partition", e.getKey().partition());
      m.put("error", e.getValue().map(t -> t.getClass().getSimpleName()).orElse(null));
      out.add(m);
    }
    return out;
  }

  private static Object alterPartitionReassignments(Admin admin, JsonNode cmd) throws Exception {
    Map<TopicPartition, Optional<NewPartitionReassignment>> moves = new LinkedHashMap<>();
    for (JsonNode m : cmd.get("moves")) {
      List<Integer> replicas = new ArrayList<>();
      for (JsonNode r : m.get("replicas")) replicas.add(r.asInt());
      moves.put(new TopicPartition(m.get("topic").asText(), m.get("partition").asInt()), Optional.of(new NewPartitionReassignment(replicas)));
    }
    admin.alterPartitionReassignments(moves).all().get();
    return "ok";
  }

  private static Object listPartitionReassignments(Admin admin) throws Exception {
    List<Object> out = new ArrayList<>();
    for (Map.Entry<TopicPartition, PartitionReassignment> e : admin.listPartitionReassignments().reassignments().get().entrySet()) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("topic", e.getKey().topic());
      m.put("partition", e.getKey().partition());
      m.put("replicas", e.getValue().replicas());
      m.put("addingReplicas", e.getValue().addingReplicas());
      m.put("removingReplicas", e.getValue().removingReplicas());
      out.add(m);
    }
    return out;
  }

  private static Object describeConsumerGroup(Admin admin, String group, boolean includeAuthorizedOperations) throws Exception {
    DescribeConsumerGroupsOptions options = new DescribeConsumerGroupsOptions().includeAuthorizedOperations(includeAuthorizedOperations);
    ConsumerGroupDescription d = admin.describeConsumerGroups(List.of(group), options).all().get().get(group);
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("groupId", d.groupId());
    out.put("state", d.groupState().toString());
    out.put("type", d.type().toString());
    out.put("assignor", d.partitionAssignor());
    out.put("groupEpoch", d.groupEpoch().orElse(null));
    out.put("targetAssignmentEpoch", d.targetAssignmentEpoch().orElse(null));
    out.put("coordinator", d.coordinator().id());
    List<Object> members = new ArrayList<>();
    for (MemberDescription m : d.members()) {
      Map<String, Object> mm = new LinkedHashMap<>();
      mm.put("memberId", m.consumerId());
      mm.put("groupInstanceId", m.groupInstanceId().orElse(null));
      mm.put("clientId", m.clientId());
      mm.put("clientHost", m.host());
      mm.put("memberEpoch", m.memberEpoch().orElse(null));
      mm.put("assignment", m.assignment().topicPartitions().stream().map(TopicPartition::toString).sorted().toList());
      mm.put("targetAssignment", m.targetAssignment().map(a -> a.topicPartitions().stream().map(TopicPartition::toString).sorted().toList()).orElse(null));
      members.add(mm);
    }
    out.put("members", members);
    // Only when asked, so that the answers of the other describe tests keep their shape.
    if (includeAuthorizedOperations) {
      out.put("authorizedOperations", d.authorizedOperations() == null ? null : d.authorizedOperations().stream().map(Enum::name).sorted().toList());
    }
    return out;
  }

  // Transactions administration (KIP-664): int64s as strings, absent optionals as -1, as tidemark reports them.

  private static Object describeProducers(Admin admin, JsonNode cmd) throws Exception {
    List<TopicPartition> partitions = new ArrayList<>();
    for (JsonNode p : cmd.get("partitions")) {
      partitions.add(new TopicPartition(p.get("topic").asText(), p.get("partition").asInt()));
    }
    Map<TopicPartition, DescribeProducersResult.PartitionProducerState> all =
        admin.describeProducers(partitions).all().get();
    List<Object> out = new ArrayList<>();
    for (TopicPartition tp : partitions) {
      List<Object> producers = new ArrayList<>();
      for (ProducerState s : all.get(tp).activeProducers()) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("producerId", Long.toString(s.producerId()));
        m.put("producerEpoch", s.producerEpoch());
        m.put("lastSequence", s.lastSequence());
        m.put("lastTimestamp", Long.toString(s.lastTimestamp()));
        m.put("coordinatorEpoch", s.coordinatorEpoch().orElse(-1));
        m.put("currentTxnStartOffset", Long.toString(s.currentTransactionStartOffset().orElse(-1)));
        producers.add(m);
      }
      out.add(Map.of("topic", tp.topic(), "partition", tp.partition(), "activeProducers", producers));
    }
    return out;
  }

  private static Object describeTransactions(Admin admin, JsonNode cmd) throws Exception {
    List<String> ids = new ArrayList<>();
    for (JsonNode id : cmd.get("transactionalIds")) ids.add(id.asText());
    Map<String, TransactionDescription> all = admin.describeTransactions(ids).all().get();
    List<Object> out = new ArrayList<>();
    for (String id : ids) {
      TransactionDescription d = all.get(id);
      List<TopicPartition> sorted = new ArrayList<>(d.topicPartitions());
      sorted.sort(Comparator.comparing(TopicPartition::topic).thenComparingInt(TopicPartition::partition));
      List<Object> partitions = new ArrayList<>();
      for (TopicPartition tp : sorted) partitions.add(Map.of("topic", tp.topic(), "partition", tp.partition()));
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("transactionalId", id);
      m.put("coordinator", d.coordinatorId());
      m.put("state", d.state().toString());
      m.put("transactionTimeoutMs", d.transactionTimeoutMs());
      m.put("transactionStartTimeMs", Long.toString(d.transactionStartTimeMs().orElse(-1)));
      m.put("producerId", Long.toString(d.producerId()));
      m.put("producerEpoch", d.producerEpoch());
      m.put("topicPartitions", partitions);
      out.add(m);
    }
    return out;
  }

  private static Object listTransactions(Admin admin) throws Exception {
    List<Object> out = new ArrayList<>();
    for (TransactionListing l : admin.listTransactions().all().get()) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("transactionalId", l.transactionalId());
      m.put("producerId", Long.toString(l.producerId()));
      m.put("state", l.state().toString());
      out.add(m);
    }
    return out;
  }
}
