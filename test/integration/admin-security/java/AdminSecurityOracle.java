package dev.tidemark.adminsecurity;

import com.fasterxml.jackson.databind.JsonNode;
import dev.tidemark.harness.JsonLines;
import java.util.*;
import org.apache.kafka.clients.admin.*;
import org.apache.kafka.common.acl.*;
import org.apache.kafka.common.quota.*;
import org.apache.kafka.common.resource.*;

/**
 * Kafka's Java AdminClient as the oracle of tidemark's security admin tests (ACLs, SCRAM credentials, client
 * quotas): one JSON command per stdin line, one answer per "@@ " line (JsonLines). Answers are plain JSON in the
 * shapes tidemark returns, so a test compares them with toEqual.
 */
public final class AdminSecurityOracle {
  public static void main(String[] args) throws Exception {
    JsonLines.serve(AdminSecurityOracle::run, () -> {});
  }

  private static Object run(JsonNode cmd) throws Exception {
    if (cmd.get("op").asText().equals("version")) return "ready";
    Properties p = new Properties();
    p.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, cmd.get("bootstrap").asText());
    JsonNode sasl = cmd.get("sasl");
    if (sasl != null && !sasl.isNull()) {
      // A SCRAM user of the SASL listener, so that the oracle is authorized as that user (not as ANONYMOUS).
      p.put("security.protocol", "SASL_PLAINTEXT");
      p.put("sasl.mechanism", sasl.get("mechanism").asText());
      p.put("sasl.jaas.config", String.format(
          "org.apache.kafka.common.security.scram.ScramLoginModule required username=\"%s\" password=\"%s\";",
          sasl.get("username").asText(), sasl.get("password").asText()));
    }
    try (Admin admin = Admin.create(p)) {
      switch (cmd.get("op").asText()) {
        case "describeAcls":
          return bindings(admin.describeAcls(filter(cmd.get("filter"))).values().get());
        case "createAcls": {
          List<AclBinding> list = new ArrayList<>();
          for (JsonNode b : cmd.get("bindings")) list.add(binding(b));
          admin.createAcls(list).all().get();
          return true;
        }
        case "describeScram":
          return scram(admin, cmd.get("users"));
        case "describeTopics":
          return topics(admin, cmd);
        case "describeGroupOperations": {
          String group = cmd.get("group").asText();
          ConsumerGroupDescription d = admin.describeConsumerGroups(
              List.of(group), new DescribeConsumerGroupsOptions().includeAuthorizedOperations(true)).all().get().get(group);
          return d.authorizedOperations() == null ? null : d.authorizedOperations().stream().map(Enum::name).sorted().toList();
        }
        case "describeQuotas":
          return quotas(admin, cmd.get("components"), cmd.path("strict").asBoolean(false));
        default:
          throw new IllegalArgumentException("unknown op " + cmd.get("op"));
      }
    }
  }

  private static String text(JsonNode n, String field, String fallback) {
    JsonNode v = n.get(field);
    return v == null || v.isNull() ? fallback : v.asText();
  }

  private static AclBindingFilter filter(JsonNode f) {
    ResourcePatternFilter pattern = new ResourcePatternFilter(
        ResourceType.fromString(text(f, "resourceType", "ANY")),
        text(f, "resourceName", null),
        PatternType.fromString(text(f, "patternType", "ANY")));
    AccessControlEntryFilter entry = new AccessControlEntryFilter(
        text(f, "principal", null),
        text(f, "host", null),
        AclOperation.fromString(text(f, "operation", "ANY")),
        AclPermissionType.fromString(text(f, "permission", "ANY")));
    return new AclBindingFilter(pattern, entry);
  }

  private static AclBinding binding(JsonNode b) {
    return new AclBinding(
        new ResourcePattern(
            ResourceType.fromString(b.get("resourceType").asText()),
            b.get("resourceName").asText(),
            PatternType.fromString(b.get("patternType").asText())),
        new AccessControlEntry(
            b.get("principal").asText(),
            b.get("host").asText(),
            AclOperation.fromString(b.get("operation").asText()),
            AclPermissionType.fromString(b.get("permission").asText())));
  }

  private static List<Map<String, Object>> bindings(Collection<AclBinding> list) {
    List<Map<String, Object>> out = new ArrayList<>();
    for (AclBinding b : list) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("resourceType", b.pattern().resourceType().name());
      m.put("resourceName", b.pattern().name());
      m.put("patternType", b.pattern().patternType().name());
      m.put("principal", b.entry().principal());
      m.put("host", b.entry().host());
      m.put("operation", b.entry().operation().name());
      m.put("permission", b.entry().permissionType().name());
      out.add(m);
    }
    return out;
  }

  /** Per user: its mechanisms and iterations, or the error's class name and message. */
  private static Map<String, Object> scram(Admin admin, JsonNode users) throws Exception {
    List<String> names = new ArrayList<>();
    if (users != null && !users.isNull()) for (JsonNode u : users) names.add(u.asText());
    DescribeUserScramCredentialsResult r =
        names.isEmpty() ? admin.describeUserScramCredentials() : admin.describeUserScramCredentials(names);
    if (names.isEmpty()) names = r.users().get();
    Map<String, Object> out = new TreeMap<>();
    for (String user : names) {
      try {
        List<Map<String, Object>> infos = new ArrayList<>();
        for (ScramCredentialInfo i : r.description(user).get().credentialInfos()) {
          Map<String, Object> m = new LinkedHashMap<>();
          m.put("mechanism", i.mechanism().mechanismName());
          m.put("iterations", i.iterations());
          infos.add(m);
        }
        out.put(user, infos);
      } catch (Exception e) {
        Throwable c = e.getCause() == null ? e : e.getCause();
        out.put(user, Map.of("error", c.getClass().getSimpleName(), "message", String.valueOf(c.getMessage())));
      }
    }
    return out;
  }

  private static List<Integer> ids(List<org.apache.kafka.common.Node> nodes) {
    List<Integer> out = new ArrayList<>();
    for (org.apache.kafka.common.Node n : nodes) out.add(n.id());
    return out;
  }

  /** describeTopics, which asks with DescribeTopicPartitions (paged by partitionLimit) where the broker has it. */
  private static List<Map<String, Object>> topics(Admin admin, JsonNode cmd) throws Exception {
    List<String> names = new ArrayList<>();
    for (JsonNode n : cmd.get("topics")) names.add(n.asText());
    DescribeTopicsOptions options = new DescribeTopicsOptions();
    if (cmd.has("partitionLimit")) options.partitionSizeLimitPerResponse(cmd.get("partitionLimit").asInt());
    Map<String, TopicDescription> all = admin.describeTopics(names, options).allTopicNames().get();
    List<Map<String, Object>> out = new ArrayList<>();
    for (String name : names) {
      TopicDescription d = all.get(name);
      Map<String, Object> t = new LinkedHashMap<>();
      t.put("name", d.name());
      t.put("topicId", d.topicId().toString());
      t.put("isInternal", d.isInternal());
      List<Map<String, Object>> partitions = new ArrayList<>();
      for (org.apache.kafka.common.TopicPartitionInfo p : d.partitions()) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("partition", p.partition());
        m.put("leader", p.leader() == null ? -1 : p.leader().id());
        m.put("replicas", ids(p.replicas()));
        m.put("isr", ids(p.isr()));
        m.put("eligibleLeaderReplicas", ids(p.elr()));
        m.put("lastKnownElr", ids(p.lastKnownElr()));
        partitions.add(m);
      }
      t.put("partitions", partitions);
      out.add(t);
    }
    return out;
  }

  private static List<Map<String, Object>> quotas(Admin admin, JsonNode components, boolean strict)
      throws Exception {
    List<ClientQuotaFilterComponent> list = new ArrayList<>();
    for (JsonNode c : components) {
      String type = c.get("entityType").asText();
      String match = c.get("match").asText();
      if (match.equals("exact")) list.add(ClientQuotaFilterComponent.ofEntity(type, text(c, "name", null)));
      else if (match.equals("default")) list.add(ClientQuotaFilterComponent.ofDefaultEntity(type));
      else list.add(ClientQuotaFilterComponent.ofEntityType(type));
    }
    ClientQuotaFilter filter = strict ? ClientQuotaFilter.containsOnly(list) : ClientQuotaFilter.contains(list);
    List<Map<String, Object>> out = new ArrayList<>();
    for (Map.Entry<ClientQuotaEntity, Map<String, Double>> e :
        admin.describeClientQuotas(filter).entities().get().entrySet()) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("entity", new TreeMap<>(e.getKey().entries()));
      m.put("values", new TreeMap<>(e.getValue()));
      out.add(m);
    }
    return out;
  }
}
