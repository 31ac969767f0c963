package dev.igw.helm;

import com.marcnuri.helm.Helm;
import com.marcnuri.helm.LintResult;
import com.marcnuri.helm.TemplateCommand;
import java.nio.file.Path;
import java.nio.file.Paths;

/**
 * `template CHART [--name N] [--namespace NS] [-f VALUES]... [--set K=V]... [--no-hooks]` prints
 * the rendered manifests and, like `helm template`, the hooks after them (see {@link Hooks});
 * `lint CHART [--strict]` prints Helm's lint messages. A chart error (a `required`,
 * a `fail`, a template that does not parse) prints one line to stderr and exits 1.
 */
public final class HelmTool {
  public static void main(String[] args) {
    if (args.length < 2) usage();
    Path chart = Paths.get(args[1]);
    try {
      switch (args[0]) {
        case "template" -> System.out.print(template(chart, args));
        case "lint" -> System.exit(lint(chart, args));
        default -> usage();
      }
    } catch (RuntimeException e) {
      System.err.println("helm: " + String.valueOf(e.getMessage()).strip().replace('\n', ' '));
      System.exit(1);
    }
  }

  private static String template(Path chart, String[] args) {
    boolean hooks = !java.util.Arrays.asList(args).contains("--no-hooks");
    if (!hooks) return templateCommand(chart, args).call();
    Path copy = Hooks.chartWithHooksAsResources(chart);
    try {
      return Hooks.helmTemplateOutput(templateCommand(copy, args).call());
    } finally {
      Hooks.delete(copy.getParent());
    }
  }

  private static TemplateCommand templateCommand(Path chart, String[] args) {
    TemplateCommand cmd = new Helm(chart).template().withName("igw");
    for (int i = 2; i < args.length; i++) {
      switch (args[i]) {
        case "--no-hooks" -> {}
        case "--name" -> cmd = cmd.withName(args[++i]);
        case "--namespace" -> cmd = cmd.withNamespace(args[++i]);
        case "-f", "--values" -> cmd = cmd.withValuesFile(Paths.get(args[++i]));
        case "--set" -> {
          String kv = args[++i];
          int eq = kv.indexOf('=');
          if (eq < 1) usage();
          cmd = cmd.set(kv.substring(0, eq), kv.substring(eq + 1));
        }
        default -> usage();
      }
    }
    return cmd;
  }

  private static int lint(Path chart, String[] args) {
    var cmd = new Helm(chart).lint();
    for (int i = 2; i < args.length; i++) {
      if (args[i].equals("--strict")) cmd = cmd.strict();
      else usage();
    }
    LintResult result = cmd.call();
    for (String m : result.getMessages()) System.out.println(m);
    return result.isFailed() ? 1 : 0;
  }

  private static void usage() {
    System.err.println("usage: HelmTool template CHART [--name N] [--namespace NS] [-f VALUES]... [--set K=V]... [--no-hooks] | lint CHART [--strict]");
    System.exit(2);
  }
}
