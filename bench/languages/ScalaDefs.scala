// The Scala definitions oracle (bench/languages/scalac.py): the Scala compiler's own parser,
// stopped after parsing, lists every class, trait, object, def, val, var and type of each file
// read from standard input (one path a line), one JSON object a line:
//   {"path", "name", "kind", "line", "end", "scope", "scopeKind"}
// `line` is the line of the name, `end` the last line of the definition's range (-Yrangepos);
// `scope` the enclosing definitions' names joined by `.`, `scopeKind` the innermost one's kind
// ("function" for anything inside a def's body or a val's initialiser: local, not counted).
// Compiler-made trees (a primary constructor, case class members, a pattern val's pieces) have
// no range of their own in the source and are left out.

import scala.tools.nsc.{Global, Settings}
import scala.tools.nsc.reporters.StoreReporter

object ScalaDefs {
  def main(args: Array[String]): Unit = {
    val settings = new Settings()
    settings.usejavacp.value = true
    settings.Yrangepos.value = true
    settings.stopAfter.value = List("parser")
    val global = new Global(settings, new StoreReporter)
    import global._
    new Run

    def quote(s: String): String = {
      val b = new StringBuilder("\"")
      s.foreach {
        case '"' => b.append("\\\"")
        case '\\' => b.append("\\\\")
        case c if c < ' ' => b.append("\\u%04x".format(c.toInt))
        case c => b.append(c)
      }
      b.append('"').toString
    }

    class Lister(path: String, source: scala.reflect.internal.util.SourceFile) extends Traverser {
      var scope: List[(String, String)] = Nil
      def emit(name: String, kind: String, tree: Tree): Unit = {
        val pos = tree.pos
        if (pos.isRange && !pos.isTransparent && !name.startsWith("<") && !name.contains("$")) {
          val line = pos.focus.line
          val end = source.offsetToLine(math.max(pos.start, pos.end - 1)) + 1
          val names = scope.reverse.map(_._1).mkString(".")
          val scopeKind = scope.headOption.map(_._2).getOrElse("")
          println(
            "{" + List(
              "\"path\":" + quote(path), "\"name\":" + quote(name), "\"kind\":" + quote(kind),
              "\"line\":" + line, "\"end\":" + end, "\"scope\":" + quote(names),
              "\"scopeKind\":" + quote(scopeKind)
            ).mkString(",") + "}")
        }
      }
      def within(name: String, kind: String)(body: => Unit): Unit = {
        scope = (name, kind) :: scope
        body
        scope = scope.tail
      }
      override def traverse(tree: Tree): Unit = tree match {
        case c: ClassDef =>
          val kind = if (c.mods.isTrait) "trait" else "class"
          emit(c.name.decoded, kind, c)
          // an anonymous class (`new T { ... }`) is local to the code around it
          val holds = if (c.name.decoded.contains("$")) "function" else kind
          within(c.name.decoded, holds)(c.impl.body.foreach(traverse))
        case m: ModuleDef =>
          emit(m.name.decoded, "object", m)
          within(m.name.decoded, "object")(m.impl.body.foreach(traverse))
        case d: DefDef =>
          val name = if (d.name == nme.CONSTRUCTOR) "this" else d.name.decoded
          if (d.name != nme.CONSTRUCTOR || d.pos.isRange && d.pos.start != d.pos.end) {
            emit(name, "method", d)
          }
          within(name, "function") {
            d.vparamss.flatten.foreach(p => traverse(p.rhs))
            traverse(d.rhs)
          }
        case v: ValDef =>
          emit(v.name.decoded, if (v.mods.isMutable) "var" else "val", v)
          within(v.name.decoded, "function")(traverse(v.rhs))
        case t: TypeDef =>
          emit(t.name.decoded, "type", t)
        case _ => super.traverse(tree)
      }
    }

    val input = scala.io.Source.stdin
    for (path <- input.getLines() if path.length > 0) {
      val file = getSourceFile(path)
      val unit = new CompilationUnit(file)
      val tree = newUnitParser(unit).parse()
      new Lister(path, file).traverse(tree)
      Console.out.flush()
    }
  }
}
