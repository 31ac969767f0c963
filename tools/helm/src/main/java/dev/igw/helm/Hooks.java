package dev.igw.helm;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Hooks in `template` output, as `helm template` prints them.
 *
 * <p>helm-java's TemplateCommand (0.0.15, and every later release so far) prints only the
 * release manifest, which Helm keeps free of hooks, and has no option for the hooks. So the
 * chart is copied and every `helm.sh/hook` in its templates is renamed to {@link #PLACEHOLDER}:
 * Helm's engine then renders those documents exactly as it renders the hooks, but keeps them in
 * the manifest. Helm sorts hooks and resources the same way (stable, by kind, from the same
 * file-ordered list), so taking the renamed documents out of the manifest in the order they come
 * gives Helm's hook order; they are printed after the manifest, with the name restored, in the
 * form Helm's `template` command uses: `---\n# Source: PATH\nMANIFEST\n` each.
 *
 * <p>Limit: an annotation key that a template builds from pieces (not the literal text
 * `helm.sh/hook`) is not seen, and that hook would still be left out.
 */
final class Hooks {
  static final String ANNOTATION = "helm.sh/hook";
  static final String PLACEHOLDER = "igw-template-hook.invalid/hook";
  private static final Pattern DOCUMENT = Pattern.compile("(?m)^---\\n(?=# Source: )");
  private static final Pattern IS_HOOK =
      Pattern.compile("(?m)^\\s+[\"']?" + Pattern.quote(PLACEHOLDER) + "[\"']?\\s*:");

  private Hooks() {}

  /** A copy of the chart (in a new temporary directory) with the hook annotations renamed. */
  static Path chartWithHooksAsResources(Path chart) {
    try {
      Path dir = Files.createTempDirectory("igw-helm-");
      Path copy = dir.resolve(chart.toAbsolutePath().normalize().getFileName().toString());
      try (Stream<Path> files = Files.walk(chart)) {
        for (Path from : (Iterable<Path>) files::iterator) {
          Path to = copy.resolve(chart.relativize(from).toString());
          if (Files.isDirectory(from)) {
            Files.createDirectories(to);
          } else if (isTemplate(chart.relativize(from))) {
            String text = Files.readString(from, StandardCharsets.UTF_8);
            Files.writeString(to, text.replace(ANNOTATION, PLACEHOLDER), StandardCharsets.UTF_8);
          } else {
            Files.copy(from, to);
          }
        }
      }
      return copy;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static boolean isTemplate(Path relative) {
    for (Path part : relative) if (part.toString().equals("templates")) return true;
    return false;
  }

  /** The output of `helm template`, from the render of a chart whose hooks were renamed. */
  static String helmTemplateOutput(String rendered) {
    StringBuilder manifest = new StringBuilder();
    List<String> hooks = new ArrayList<>();
    for (String doc : DOCUMENT.split(rendered)) {
      if (doc.isBlank()) continue;
      String body = doc.endsWith("\n") ? doc : doc + "\n";
      if (IS_HOOK.matcher(body).find()) hooks.add("---\n" + body.replace(PLACEHOLDER, ANNOTATION));
      else manifest.append("---\n").append(body);
    }
    StringBuilder out = new StringBuilder(manifest.toString().strip()).append('\n');
    hooks.forEach(out::append);
    return out.toString();
  }

  static void delete(Path dir) {
    try (Stream<Path> files = Files.walk(dir)) {
      for (Path p : files.sorted(Comparator.reverseOrder()).toList()) Files.deleteIfExists(p);
    } catch (IOException e) {
      // A temporary directory left behind is not worth failing the render for.
    }
  }
}
