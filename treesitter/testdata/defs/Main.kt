package app

const val MAX = 10

interface Greeter {
    fun greet(name: String): String
}

data class User(val id: Int, val name: String) {
    val display: String get() = name

    fun rename(n: String): User = copy(name = n)

    companion object {
        fun empty() = User(0, "")
    }
}

object Registry {
    private val users = mutableListOf<User>()
    fun add(u: User) { users.add(u) }
}

enum class Color { RED, GREEN }

typealias Users = List<User>

fun main() {
    println("hi")
}
