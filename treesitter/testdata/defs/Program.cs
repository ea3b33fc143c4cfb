using System;

namespace App.Core
{
    public interface IRepo<T> where T : class
    {
        T Find(int id);
    }

    public class UserRepo : IRepo<User>
    {
        private readonly int _max = 10, _min;
        public string Name { get; set; }

        public UserRepo() { }

        [Obsolete]
        public User Find(int id) => null;

        public struct Stats { public int Hits; }
    }

    public enum Level { Low, High }

    public delegate void Handler(object sender);

    public record Person(string First, string Last);
}
